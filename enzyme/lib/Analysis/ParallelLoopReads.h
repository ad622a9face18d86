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

/// An exclusive read whose index the program truncates to Bits (an `int`
/// computed from a 64-bit iteration number) is exclusive only while the
/// construct has at most 2^Bits iterations: `Upper - Lower < 2^Bits`, with
/// the construct's first and last iteration numbers.
struct IterationLimit {
  llvm::Value *Lower;
  llvm::Value *Upper;
  unsigned Bits;
};

class ParallelLoopReads {
public:
  /// Classifies the reads of \p Body, the outlined body of an OpenMP region
  /// (its first two parameters are the thread ids, the others the team's
  /// shared arguments). \p WritesNoUserMemory says which calls write
  /// nothing the program reads (math functions setting errno).
  ParallelLoopReads(
      llvm::Function &Body, llvm::AAResults &AA, llvm::ScalarEvolution &SE,
      llvm::LoopInfo &LI, llvm::DominatorTree &DT,
      llvm::function_ref<bool(const llvm::CallBase &)> WritesNoUserMemory);

  ReadSharing sharing(const llvm::LoadInst &Load) const;

  /// For an exclusive load, the run-time condition it depends on, if any.
  std::optional<IterationLimit> limitOf(const llvm::LoadInst &Load) const;

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
    std::optional<IterationLimit> Limit;
  };
  /// A construct's first and last iteration numbers.
  using IterationBounds = std::pair<llvm::Value *, llvm::Value *>;
  /// Reads that may overlap an exclusive group: what else the body reads.
  struct OtherRead {
    llvm::Instruction *I;
    /// Null for a call (alias analysis asks what it reads).
    const llvm::Value *Ptr;
  };

  void findWorksharingSlots(llvm::Function &Body);
  void findIterationNumbers();
  /// The construct whose slot in \p Slots \p V loads once it is open.
  llvm::CallBase *slotOpener(
      const llvm::Value *V,
      const llvm::DenseMap<const llvm::Value *, llvm::CallBase *> &Slots);
  bool isChunkStart(llvm::Value *V, llvm::SmallPtrSetImpl<llvm::Value *> &Seen,
                    llvm::CallBase *&Opener);
  std::optional<IterationBounds> boundsOf(llvm::CallBase &Opener);
  llvm::CallBase *partitionSetterOf(llvm::CallBase &Get);
  bool inThreadTeamData(const llvm::Value *Ptr) const;
  bool isThreadInvariant(const llvm::Value *V);
  bool isThreadInvariant(const llvm::SCEV *S);
  bool mayBeWritten(const llvm::MemoryLocation &Loc);
  std::optional<IndexedRead> indexedRead(llvm::LoadInst &Load);
  void
  classify(llvm::Function &Body,
           llvm::function_ref<bool(const llvm::CallBase &)> WritesNoUserMemory);
  bool overlaps(const IndexedRead &R, const OtherRead &O);

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
  /// Per worksharing loop, its iteration number and the call opening its
  /// construct.
  llvm::DenseMap<const llvm::Loop *,
                 std::pair<llvm::PHINode *, llvm::CallBase *>>
      IterationNumbers;
  llvm::DenseMap<const llvm::LoadInst *, IterationLimit> Limits;
  llvm::DenseMap<const llvm::Value *, bool> InvariantValues;
  llvm::DenseMap<const llvm::LoadInst *, ReadSharing> Sharing;
  llvm::DenseMap<const llvm::LoadInst *, const llvm::LoadInst *> Accumulators;
  bool FlushesAfterBarrier = false;
};

} // namespace enzyme

#endif // ENZYME_ANALYSIS_PARALLELLOOPREADS_H
