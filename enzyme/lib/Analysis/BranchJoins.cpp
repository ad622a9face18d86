//===- BranchJoins.cpp - Joins whose predecessor a branch decides ---------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Analysis/BranchJoins.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace enzyme {

/// Which way the branch \p Br of \p Decider went on the last execution of
/// \p Decider before the edge \p Pred -> \p Join: 0 or 1 (successor index),
/// or -1 if that is not determined.
///
/// Pred == Decider: the edge itself is one successor. Otherwise Pred must
/// be dominated by a successor S (not the join) whose only predecessor is
/// the decider: a path from the decider's other successor to Pred would
/// then have to pass through the decider again, so the last execution of
/// the decider went to S.
static int sideOf(BasicBlock *Pred, BasicBlock *Join, BranchInst *Br,
                  const DominatorTree &DT) {
  BasicBlock *Decider = Br->getParent();
  int Side = -1;
  for (unsigned S = 0; S < 2; ++S) {
    BasicBlock *Succ = Br->getSuccessor(S);
    bool Decides = Pred == Decider
                       ? Succ == Join
                       : Succ != Join &&
                             Succ->getSinglePredecessor() == Decider &&
                             DT.dominates(Succ, Pred);
    if (!Decides)
      continue;
    if (Side != -1)
      return -1;
    Side = S;
  }
  return Side;
}

SmallVector<BasicBlock *, 4> uniquePredecessors(BasicBlock *BB) {
  SmallVector<BasicBlock *, 4> Preds;
  for (BasicBlock *P : predecessors(BB))
    if (!is_contained(Preds, P))
      Preds.push_back(P);
  return Preds;
}

std::optional<DecidedJoin> findDecidingBranch(BasicBlock *Join,
                                              const DominatorTree &DT) {
  SmallVector<BasicBlock *, 4> Preds = uniquePredecessors(Join);
  if (Preds.size() != 2 || !DT.getNode(Join) || !DT.getNode(Join)->getIDom())
    return std::nullopt;
  BasicBlock *Decider = DT.getNode(Join)->getIDom()->getBlock();
  auto *Br = dyn_cast<BranchInst>(Decider->getTerminator());
  if (!Br || !Br->isConditional() || Br->getSuccessor(0) == Br->getSuccessor(1))
    return std::nullopt;
  int Side0 = sideOf(Preds[0], Join, Br, DT);
  int Side1 = sideOf(Preds[1], Join, Br, DT);
  if (Side0 == -1 || Side1 == -1 || Side0 == Side1)
    return std::nullopt;
  DecidedJoin D;
  D.Condition = Br->getCondition();
  D.FromIfTrue = Side0 == 0 ? Preds[0] : Preds[1];
  D.FromIfFalse = Side0 == 0 ? Preds[1] : Preds[0];
  return D;
}

} // namespace enzyme
