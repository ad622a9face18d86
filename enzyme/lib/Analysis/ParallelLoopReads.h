//===- ParallelLoopReads.h - Reads no two threads share -------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// In the body of an OpenMP parallel region every thread of the team runs
/// the same code on shared memory, so the reverse pass adds the adjoints of
/// reads atomically (Modes/SharedAdjoints.h). Two kinds of read need less:
///
///  - *Exclusive* reads: in a worksharing loop (`omp for`, any schedule),
///    a read of `Base[i]` where `i` is the loop's iteration number and
///    `Base` is the same in every thread. The runtime gives each iteration
///    to one thread, so the element `Base[i]` is read in iteration `i` only:
///    its adjoint is added by one thread, without an atomic. This holds for
///    a group of reads at fixed offsets within one element's stride
///    (`p[2*i]` and `p[2*i+1]`), and only if nothing else the region reads
///    may overlap the group's memory: a neighbour's `Base[i+1]`, a gather
///    `Base[idx[i]]`, a call, or another array that alias analysis cannot
///    tell apart makes the whole group atomic again.
///  - *Privatized* reads: of one address the same in every thread (a shared
///    scalar coefficient) that nothing in the region writes. Each thread
///    adds their adjoints into a private accumulator and adds it to the
///    shadow once, atomically, when its reverse pass ends, after a barrier
///    when the region has exclusive reads (which are plain additions, and
///    might otherwise meet the flush at an address the analysis could not
///    tell apart).
///  - *Tile* reads: in a Kokkos MDRange tile inlined into the worksharing
///    loop over tiles (Modes/KokkosTileLoops.h), a read of
///    `Base + C0 * i + C1 * j` at point (i, j). Kokkos visits each point
///    once, so the read is exclusive if distinct points read apart: the
///    body checks at each read that the point's term of the constant
///    coefficient stays within the other coefficient (a row within the
///    row stride) and reports to the region whether every read passed; the
///    reverse adds plainly only if every thread's did (TileReadGroup).
///
/// "The same in every thread" is proved from the IR: constants, globals,
/// the region's shared arguments, and loads from such addresses that no
/// instruction of the region may write. Thread ids, the worksharing
/// bounds and anything on the thread's stack are not.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_ANALYSIS_PARALLELLOOPREADS_H
#define ENZYME_ANALYSIS_PARALLELLOOPREADS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <optional>

namespace llvm {
class AAResults;
class CallBase;
class DominatorTree;
class Function;
class Instruction;
class LoadInst;
class Loop;
class LoopInfo;
class MemoryLocation;
class PHINode;
class raw_ostream;
class SCEV;
class SCEVUnknown;
class ScalarEvolution;
class Value;
} // namespace llvm

namespace enzyme {

/// How the reverse pass adds the adjoint of a floating-point load.
enum class ReadSharing {
  /// Atomically (or plainly into the thread's stack: SharedAdjoints.h).
  Shared,
  /// Plainly: no other thread reads that element in the region.
  Exclusive,
  /// Into a per-thread accumulator flushed when the reverse pass ends.
  Privatized,
};

/// A worksharing construct's iterations, numbered as its loop counts them:
/// from `First + Shift` to `Last + Shift`. Last is `End`, or `End - 1`
/// when not inclusive (a Kokkos partition of [0, length)).
struct IterationSpace {
  llvm::Value *First;
  llvm::Value *End;
  bool EndInclusive;
  /// The amount every thread adds to its chunks (a range's begin), or null.
  llvm::Value *Shift;
};

/// Reads of one worksharing loop at fixed offsets from one element: in
/// iteration `i` they read `[Base + Start + Stride * i + Low, ... + High)`.
/// They are exclusive outright, or under a run-time condition that a guard
/// computes in the body (Modes/ExclusiveReadGuards.h): that the construct
/// has at most 2^IndexBits iterations (an index truncated to IndexBits),
/// and that groups alias analysis cannot tell apart (two arrays) are one
/// element apart or do not meet.
struct ReadGroup {
  const llvm::Loop *L;
  llvm::Value *Base;
  const llvm::SCEV *Start;
  int64_t Stride;
  int64_t Low, High;
  llvm::SmallVector<llvm::LoadInst *, 4> Loads;
  /// Where the construct's iterations run; null when unknown.
  std::optional<IterationSpace> Space;
  /// 0, or the width an index was truncated to.
  unsigned IndexBits = 0;
  /// Indices of the groups it must not meet.
  llvm::SmallVector<unsigned, 2> ApartFrom;
};

/// Reads of a Kokkos MDRange tile at fixed offsets from one point's
/// element: at point (P0, P1) of the tile's loops they read
/// `[Base + Rest + C[0] * W[0] + C[1] * W[1] + Low, ... + High)`, where W[k]
/// is P[k], or P[k] truncated to IndexBits[k] and sign-extended (an `int`
/// index). Distinct points
/// read apart where C[Small] is a constant of at least High - Low and every
/// point has no truncation that changed it and `0 <= C[Small] * W[Small] +
/// Low`, `C[Small] * W[Small] + High <= C[1 - Small]`: two points in one row
/// differ by C[Small] at least, two rows by more than a row's reads span.
struct TileReadGroup {
  /// A read, the two point values it reads at and its coefficients (the
  /// group's, computed from values at hand).
  struct Member {
    llvm::LoadInst *Load;
    std::array<llvm::Instruction *, 2> Points;
    std::array<const llvm::SCEV *, 2> Coefficients;
  };
  llvm::SmallVector<Member, 4> Members;
  std::array<const llvm::SCEV *, 2> Coefficients;
  unsigned IndexBits[2];
  unsigned Small;
  int64_t Low, High;
};

class ParallelLoopReads {
public:
  /// Classifies the reads of \p Body, the outlined body of an OpenMP region
  /// (its first two parameters are the thread ids, the others the team's
  /// shared arguments). \p WritesNoUserMemory says which calls write
  /// nothing the program reads (math functions setting errno).
  /// \p Guard emits, in the body, the i1 condition under which a group with
  /// run-time conditions is exclusive (null if it cannot: the group stays
  /// shared). \p CheckPoints emits, in the body, the checks of a tile
  /// group's points (false if it cannot: the group stays shared).
  ParallelLoopReads(
      llvm::Function &Body, llvm::AAResults &AA, llvm::ScalarEvolution &SE,
      llvm::LoopInfo &LI, llvm::DominatorTree &DT,
      llvm::function_ref<bool(const llvm::CallBase &)> WritesNoUserMemory,
      llvm::function_ref<llvm::Value *(const ReadGroup &,
                                       llvm::ArrayRef<ReadGroup>)>
          Guard,
      llvm::function_ref<bool(const TileReadGroup &)> CheckPoints);

  ReadSharing sharing(const llvm::LoadInst &Load) const;

  /// For an exclusive load, the i1 value of the body under which it is
  /// (elsewhere its adjoint is added atomically), or null if it always is.
  llvm::Value *conditionOf(const llvm::LoadInst &Load) const {
    return Conditions.lookup(&Load);
  }

  /// An exclusive load of a tile group: plain only if every thread of the
  /// team reported that its points passed the checks.
  bool checkedByTeam(const llvm::LoadInst &Load) const {
    return TeamChecked.contains(&Load);
  }

  /// For a privatized load, the first load of the same address and type:
  /// the loads of one address share an accumulator.
  const llvm::LoadInst *accumulatorOf(const llvm::LoadInst &Load) const;

  /// The body has exclusive reads: the flushes of privatized adjoints wait
  /// at a barrier until every thread's plain additions are done.
  bool flushesAfterBarrier() const { return FlushesAfterBarrier; }
  /// The source location (`ident_t`) of an OpenMP worksharing call of the
  /// body, for that barrier; null if it has none.
  llvm::Value *barrierLocation() const { return Location; }

  /// Each floating-point load of \p Body and its sharing (for tests:
  /// `-enzyme-print-parallel-reads`).
  void print(llvm::Function &Body, llvm::raw_ostream &OS) const;

  /// \p A and \p B compute the same address or value from the same
  /// operands (two loads of one shared pointer, say).
  static bool sameComputation(const llvm::Value *A, const llvm::Value *B,
                              unsigned Depth = 0);

private:
  /// A read at `Base + Offset`, with `Offset = Start + Stride * i` in
  /// iteration `i` of a worksharing loop.
  struct IndexedRead {
    llvm::LoadInst *Load;
    const llvm::Loop *L;
    llvm::Value *Base;
    int64_t Stride;
    const llvm::SCEV *Start;
    uint64_t Size;
    /// 0, or the width an index was truncated to.
    unsigned IndexBits;
  };
  /// Reads that may overlap an exclusive group: what else the body reads.
  struct OtherRead {
    llvm::Instruction *I;
    /// Null for a call (alias analysis asks what it reads).
    const llvm::Value *Ptr;
  };
  /// A read of a tile at `Base + Rest + C[0] * W[0] + C[1] * W[1]`.
  struct TileRead {
    llvm::LoadInst *Load;
    int Tile;
    llvm::Value *Base;
    const llvm::SCEV *Rest;
    std::array<llvm::Instruction *, 2> Points;
    std::array<const llvm::SCEV *, 2> Coefficients;
    unsigned IndexBits[2];
    uint64_t Size;
  };

  void findWorksharingSlots(llvm::Function &Body);
  void findIterationNumbers();
  /// The construct whose slot in \p Slots \p V loads once it is open.
  llvm::CallBase *slotOpener(
      const llvm::Value *V,
      const llvm::DenseMap<const llvm::Value *, llvm::CallBase *> &Slots);
  bool isChunkStart(llvm::Value *V, llvm::SmallPtrSetImpl<llvm::Value *> &Seen,
                    llvm::CallBase *&Opener);
  std::optional<IterationSpace> spaceOf(const llvm::Loop *L);
  std::optional<IterationSpace> spaceOfConstruct(const llvm::Loop *L);
  llvm::CallBase *partitionSetterOf(llvm::CallBase &Get);
  bool inThreadTeamData(const llvm::Value *Ptr) const;
  bool isThreadInvariant(const llvm::Value *V);
  bool isThreadInvariant(const llvm::SCEV *S);
  bool mayBeWritten(const llvm::MemoryLocation &Loc);
  /// The loop of the body's worksharing construct that is \p L or holds
  /// it, or null.
  const llvm::Loop *worksharingLoopAround(const llvm::Loop *L) const;
  /// \p Load's address as a base the same in every thread and an offset.
  std::optional<std::pair<const llvm::SCEVUnknown *, const llvm::SCEV *>>
  invariantBaseAndOffset(llvm::LoadInst &Load);
  std::optional<IndexedRead> indexedRead(llvm::LoadInst &Load);
  void
  classify(llvm::Function &Body,
           llvm::function_ref<bool(const llvm::CallBase &)> WritesNoUserMemory,
           llvm::function_ref<llvm::Value *(const ReadGroup &,
                                            llvm::ArrayRef<ReadGroup>)>
               Guard,
           llvm::function_ref<bool(const TileReadGroup &)> CheckPoints);
  bool overlaps(const llvm::LoadInst &Load, const OtherRead &O);
  std::optional<TileRead> tileRead(llvm::LoadInst &Load);
  void classifyTileReads(
      llvm::ArrayRef<TileRead> Reads, llvm::ArrayRef<OtherRead> Others,
      llvm::function_ref<bool(const TileReadGroup &)> CheckPoints);

  llvm::AAResults &AA;
  llvm::ScalarEvolution &SE;
  llvm::LoopInfo &LI;
  llvm::DominatorTree &DT;
  llvm::SmallVector<llvm::Instruction *, 16> Writers;
  /// The lower-bound and stride slots that worksharing calls fill, with
  /// the call that opens their construct.
  llvm::DenseMap<const llvm::Value *, llvm::CallBase *> LowerBoundSlots;
  llvm::DenseMap<const llvm::Value *, llvm::CallBase *> StrideSlots;
  /// A worksharing construct is opened inside a loop of the body.
  bool OpenedInLoop = false;
  /// The source location of the first OpenMP construct opened.
  llvm::Value *Location = nullptr;
  /// Kokkos work partitions with the same length and chunk in every thread.
  llvm::SmallVector<llvm::CallBase *, 2> PartitionSetters;
  /// Per worksharing loop, its iteration number, the call opening its
  /// construct and the shift of its chunks (or null).
  struct IterationNumber {
    llvm::PHINode *Counter;
    llvm::CallBase *Opener;
    llvm::Value *Shift;
  };
  llvm::DenseMap<const llvm::Loop *, IterationNumber> IterationNumbers;
  llvm::DenseMap<const llvm::LoadInst *, llvm::Value *> Conditions;
  llvm::SmallPtrSet<const llvm::LoadInst *, 8> TeamChecked;
  llvm::DenseMap<const llvm::Value *, bool> InvariantValues;
  llvm::DenseMap<const llvm::LoadInst *, ReadSharing> Sharing;
  llvm::DenseMap<const llvm::LoadInst *, const llvm::LoadInst *> Accumulators;
  bool FlushesAfterBarrier = false;
};

} // namespace enzyme

#endif // ENZYME_ANALYSIS_PARALLELLOOPREADS_H
