//===- BranchJoins.h - Joins whose predecessor a branch decides -*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The reverse of a block with two predecessors must branch to the reverse
/// of the one the forward pass came from. For an if-then join, or the block
/// after a loop with its zero-trip guard, the conditional branch of the
/// join's immediate dominator decides that predecessor; when the reverse
/// pass can recompute that condition (counters and inputs usually), nothing
/// needs to be recorded per execution.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_ANALYSIS_BRANCHJOINS_H
#define ENZYME_ANALYSIS_BRANCHJOINS_H

#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace llvm {
class BasicBlock;
class DominatorTree;
class Value;
} // namespace llvm

namespace enzyme {

struct DecidedJoin {
  /// The i1 condition of the deciding branch.
  llvm::Value *Condition = nullptr;
  /// The predecessor of the join the forward pass came from when the
  /// condition was true, and when it was false.
  llvm::BasicBlock *FromIfTrue = nullptr;
  llvm::BasicBlock *FromIfFalse = nullptr;
};

/// The predecessors of \p BB without repetitions, in a fixed order that the
/// forward pass (which records the index) and the reverse pass (which
/// branches on it) share.
llvm::SmallVector<llvm::BasicBlock *, 4>
uniquePredecessors(llvm::BasicBlock *BB);

/// The branch that decides which of the two predecessors of \p Join the
/// forward pass came from, if there is one.
std::optional<DecidedJoin> findDecidingBranch(llvm::BasicBlock *Join,
                                              const llvm::DominatorTree &DT);

} // namespace enzyme

#endif // ENZYME_ANALYSIS_BRANCHJOINS_H
