//===- SharedAdjoints.h - Adjoints of memory other threads read -*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The reverse of a read is an addition into shadow memory. GPU threads may
/// read one location together (a parameter every thread uses), which is
/// race-free in the program, but the reverse pass then adds their adjoints
/// into one shadow location at the same time: in GPU device code those
/// additions are atomic, except into the thread's own stack; so are they in
/// the body of an OpenMP parallel region (Modes/ParallelRegions.h). (Writes
/// need no such care: a race-free program never lets two threads write, or
/// write and read, one location without a barrier between them, and the
/// reverse pass mirrors barriers.)
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_SHAREDADJOINTS_H
#define ENZYME_MODES_SHAREDADJOINTS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/IRBuilder.h"

namespace enzyme {

/// The lanes of a GPU warp that add into one shadow address. Finding them
/// (a match.any over the warp) costs more than the addition, so a reverse
/// pass finds them once per base pointer and reuses them for every addition
/// at a constant offset from it (a table row's fields, a struct's members)
/// within one straight run of code: a block and the blocks that the
/// additions' own branches split off it. Other control flow starts a new
/// run; `clear` forgets all of them (call it per reverse block).
class WarpPeerGroups {
public:
  struct Group;
  WarpPeerGroups();
  ~WarpPeerGroups();
  void clear();

  /// The group of \p Base for an addition at \p B, emitted there unless an
  /// earlier one of the run reaches \p B.
  const Group &at(llvm::IRBuilder<> &B, llvm::Value *Base, bool MayBeLocal);
  /// \p To (a block an addition split off \p From) continues its run.
  void continueRun(llvm::BasicBlock *From, llvm::BasicBlock *To);

private:
  struct Place {
    unsigned Run, Position;
  };
  Place placeOf(llvm::BasicBlock *BB);

  unsigned NextRun = 0;
  llvm::DenseMap<llvm::BasicBlock *, Place> Places;
  llvm::DenseMap<std::pair<unsigned, llvm::Value *>, std::unique_ptr<Group>>
      Groups;
};

/// Whether adjoints of reads through \p PrimalPtr must be added atomically:
/// where threads share memory (GPU device code, an OpenMP region's body),
/// unless it points into the thread's stack.
bool readIsShared(const llvm::Value *PrimalPtr, bool ThreadsShareMemory);

/// A + D for adjoints of one type; non-floating parts are left alone.
llvm::Value *addAdjoints(llvm::IRBuilder<> &B, llvm::Value *A, llvm::Value *D);

/// `*Ptr += D` for a value of type \p Ty (its floating-point parts), with
/// atomic additions when \p Atomic. In GPU code, \p Peers (when given)
/// shares the lanes' grouping among additions near one another.
void accumulateAdjoint(llvm::IRBuilder<> &B, llvm::Type *Ty, llvm::Value *Ptr,
                       llvm::Value *D, llvm::MaybeAlign Alignment, bool Atomic,
                       WarpPeerGroups *Peers = nullptr);

/// `*Ptr += D`, plainly where \p Plain (an i1) holds at run time and
/// atomically elsewhere.
void accumulateAdjointUnless(llvm::IRBuilder<> &B, llvm::Type *Ty,
                             llvm::Value *Ptr, llvm::Value *D,
                             llvm::MaybeAlign Alignment, llvm::Value *Plain,
                             WarpPeerGroups *Peers = nullptr);

} // namespace enzyme

#endif // ENZYME_MODES_SHAREDADJOINTS_H
