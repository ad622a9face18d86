//===- ReversibleLoops.cpp - Loops the reverse pass runs backwards --------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Analysis/ReversibleLoops.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace enzyme {

const LoopCounter *ReversibleLoop::firstIterationCounter() const {
  for (const LoopCounter &C : Counters)
    if (C.NoWrap)
      return &C;
  return nullptr;
}

/// `%p = phi [Start, Preheader], [gep %p, Step, Latch]`: a pointer that
/// walks memory by a constant number of bytes; the step, or null.
static ConstantInt *pointerStep(PHINode &Phi, Value *Next, bool &InBounds) {
  auto *GEP = dyn_cast<GEPOperator>(Next);
  if (!GEP || GEP->getPointerOperand() != &Phi)
    return nullptr;
  const DataLayout &DL = Phi.getModule()->getDataLayout();
  APInt Offset(DL.getIndexTypeSizeInBits(Phi.getType()), 0);
  if (!GEP->accumulateConstantOffset(DL, Offset))
    return nullptr;
  InBounds = GEP->isInBounds();
  return ConstantInt::get(Phi.getContext(), Offset);
}

/// `%i = phi [Start, Preheader], [%i + Step, Latch]` with a constant,
/// non-zero Step, or a pointer that walks memory so.
static std::optional<LoopCounter> matchCounter(PHINode &Phi,
                                               const ReversibleLoop &RL) {
  if (Phi.getNumIncomingValues() != 2)
    return std::nullopt;
  Value *NextValue = Phi.getIncomingValueForBlock(RL.Latch);
  LoopCounter C;
  C.Phi = &Phi;
  C.Start = Phi.getIncomingValueForBlock(RL.Preheader);
  if (Phi.getType()->isPointerTy()) {
    bool InBounds = false;
    C.Step = pointerStep(Phi, NextValue, InBounds);
    // An inbounds walk stays in one object: it never comes back to Start.
    C.NoWrap = InBounds;
    if (!C.Step || C.Step->isZero())
      return std::nullopt;
    return C;
  }
  if (!Phi.getType()->isIntegerTy())
    return std::nullopt;
  auto *Next = dyn_cast<BinaryOperator>(NextValue);
  if (!Next || Next->getOpcode() != Instruction::Add)
    return std::nullopt;
  Value *Other = Next->getOperand(0) == &Phi   ? Next->getOperand(1)
                 : Next->getOperand(1) == &Phi ? Next->getOperand(0)
                                               : nullptr;
  auto *Step = dyn_cast_or_null<ConstantInt>(Other);
  if (!Step || Step->isZero())
    return std::nullopt;
  C.Step = Step;
  // A 64-bit counter moving by less than 2^32 per iteration would need more
  // than 2^32 iterations to come back to its start.
  C.NoWrap = Next->hasNoSignedWrap() || Next->hasNoUnsignedWrap() ||
             (Phi.getType()->getIntegerBitWidth() >= 64 &&
              Step->getValue().abs().ult(APInt(64, 1ULL << 32)));
  return C;
}

static std::optional<ReversibleLoop> analyzeLoop(Loop &L) {
  ReversibleLoop RL;
  RL.L = &L;
  RL.Preheader = L.getLoopPreheader();
  RL.Latch = L.getLoopLatch();
  if (!RL.Preheader || !RL.Latch || !L.hasDedicatedExits())
    return std::nullopt;
  BasicBlock *Header = L.getHeader();
  for (BasicBlock *Pred : predecessors(Header))
    if (Pred != RL.Preheader && Pred != RL.Latch)
      return std::nullopt;
  L.getUniqueExitBlocks(RL.ExitBlocks);
  if (RL.ExitBlocks.empty())
    return std::nullopt;
  if (RL.Preheader != RL.Latch)
    for (PHINode &Phi : Header->phis())
      if (std::optional<LoopCounter> C = matchCounter(Phi, RL))
        RL.Counters.push_back(*C);
  return RL;
}

/// How cheaply the reverse pass has \p V when it leaves a loop backwards:
/// 0 for constants and arguments, 1 for counters of enclosing loops (kept in
/// slots) and simple arithmetic on them, 2 for values it must take from the
/// tape.
static unsigned startCost(const Value *V, const ReversibleLoops &Loops,
                          unsigned Depth = 0) {
  if (isa<Constant>(V) || isa<Argument>(V))
    return 0;
  if (auto *Phi = dyn_cast<PHINode>(V); Phi && Loops.counter(Phi))
    return 1;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth == 2 ||
      !(isa<CastInst>(I) || I->getOpcode() == Instruction::Add ||
        I->getOpcode() == Instruction::Sub))
    return 2;
  unsigned Cost = 0;
  for (const Value *Op : I->operands())
    Cost = std::max(Cost, startCost(Op, Loops, Depth + 1));
  return std::max(Cost, 1u);
}

ReversibleLoops::ReversibleLoops(LoopInfo &LI) : LI(LI) {
  // Outer loops first, so an inner loop's counters can start from theirs.
  for (Loop *L : LI.getLoopsInPreorder())
    if (std::optional<ReversibleLoop> RL = analyzeLoop(*L)) {
      Index[L] = Loops.size();
      Loops.push_back(std::move(*RL));
      // The first-iteration test compares with the counter's start, which
      // the reverse pass then needs: prefer a start it has for free.
      stable_sort(Loops.back().Counters, [&](const LoopCounter &A,
                                             const LoopCounter &B) {
        return startCost(A.Start, *this) < startCost(B.Start, *this);
      });
    }
}

const ReversibleLoop *ReversibleLoops::get(const Loop *L) const {
  auto It = Index.find(L);
  return It == Index.end() ? nullptr : &Loops[It->second];
}

const ReversibleLoop *ReversibleLoops::headedBy(const BasicBlock *BB) const {
  const Loop *L = LI.getLoopFor(BB);
  return L && L->getHeader() == BB ? get(L) : nullptr;
}

const LoopCounter *ReversibleLoops::counter(const PHINode *Phi,
                                            const ReversibleLoop **Loop) const {
  const ReversibleLoop *RL = headedBy(Phi->getParent());
  if (!RL)
    return nullptr;
  for (const LoopCounter &C : RL->Counters)
    if (C.Phi == Phi) {
      if (Loop)
        *Loop = RL;
      return &C;
    }
  return nullptr;
}

const ReversibleLoop *
ReversibleLoops::outermostEnteredAfter(const BasicBlock *Def,
                                       const BasicBlock *Use) const {
  const ReversibleLoop *Outermost = nullptr;
  for (const Loop *L = LI.getLoopFor(Use); L && !L->contains(Def);
       L = L->getParentLoop())
    if (const ReversibleLoop *RL = get(L))
      Outermost = RL;
  return Outermost;
}

} // namespace enzyme
