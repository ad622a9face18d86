//===- TripCount.cpp - A loop's trip count as IR --------------------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Analysis/TripCount.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"

using namespace llvm;

namespace enzyme {

namespace {

/// Straight-line code for loop-invariant SCEV expressions. Unlike
/// SCEVExpander it never adds induction variables to the function, and it
/// emits into a function other than the one analysed (through Map).
class InvariantExpander {
public:
  InvariantExpander(const Loop &L, IRBuilder<> &B,
                    function_ref<Value *(Value *)> Map)
      : L(L), B(B), Map(Map) {}

  Value *expand(const SCEV *S) {
    if (auto *C = dyn_cast<SCEVConstant>(S))
      return C->getValue();
    if (auto *U = dyn_cast<SCEVUnknown>(S)) {
      auto *I = dyn_cast<Instruction>(U->getValue());
      if (I && L.contains(I))
        return nullptr;
      return Map(U->getValue());
    }
    if (auto *Cast = dyn_cast<SCEVCastExpr>(S)) {
      Value *Op = expand(Cast->getOperand(0));
      if (!Op)
        return nullptr;
      switch (S->getSCEVType()) {
      case scTruncate:
        return B.CreateTrunc(Op, S->getType());
      case scZeroExtend:
        return B.CreateZExt(Op, S->getType());
      case scSignExtend:
        return B.CreateSExt(Op, S->getType());
      case scPtrToInt:
        return B.CreatePtrToInt(Op, S->getType());
      default:
        return nullptr;
      }
    }
    if (auto *Div = dyn_cast<SCEVUDivExpr>(S)) {
      auto *Divisor = dyn_cast<SCEVConstant>(Div->getRHS());
      Value *LHS = expand(Div->getLHS());
      if (!Divisor || Divisor->getValue()->isZero() || !LHS)
        return nullptr;
      return B.CreateUDiv(LHS, Divisor->getValue());
    }
    auto *NAry = dyn_cast<SCEVNAryExpr>(S);
    if (!NAry)
      return nullptr;
    std::optional<Intrinsic::ID> MinMax;
    switch (S->getSCEVType()) {
    case scAddExpr:
    case scMulExpr:
      break;
    case scSMaxExpr:
      MinMax = Intrinsic::smax;
      break;
    case scUMaxExpr:
      MinMax = Intrinsic::umax;
      break;
    case scSMinExpr:
      MinMax = Intrinsic::smin;
      break;
    case scUMinExpr:
      MinMax = Intrinsic::umin;
      break;
    default: // Recurrences and poison-blocking minimums.
      return nullptr;
    }
    Value *Result = nullptr;
    for (const SCEV *Op : NAry->operands()) {
      Value *V = expand(Op);
      if (!V)
        return nullptr;
      if (!Result)
        Result = V;
      else if (MinMax)
        Result = B.CreateBinaryIntrinsic(*MinMax, Result, V);
      else if (S->getSCEVType() == scAddExpr)
        Result = B.CreateAdd(Result, V);
      else
        Result = B.CreateMul(Result, V);
    }
    return Result;
  }

private:
  const Loop &L;
  IRBuilder<> &B;
  function_ref<Value *(Value *)> Map;
};

} // namespace

Value *emitTripCount(Loop &L, ScalarEvolution &SE, IRBuilder<> &B,
                     function_ref<Value *(Value *)> Map) {
  const SCEV *Taken = SE.getBackedgeTakenCount(&L);
  if (isa<SCEVCouldNotCompute>(Taken) || !Taken->getType()->isIntegerTy() ||
      Taken->getType()->getIntegerBitWidth() > 64)
    return nullptr;
  BasicBlock *BB = B.GetInsertBlock();
  BasicBlock::iterator End = B.GetInsertPoint();
  bool AtStart = End == BB->begin();
  Instruction *Before = AtStart ? nullptr : &*std::prev(End);
  Value *Count = InvariantExpander(L, B, Map).expand(Taken);
  if (!Count) {
    // Leave nothing behind: erase what was emitted, last first.
    while (true) {
      BasicBlock::iterator Last = std::prev(B.GetInsertPoint());
      if (B.GetInsertPoint() == BB->begin() || &*Last == Before)
        break;
      Last->eraseFromParent();
    }
    return nullptr;
  }
  return B.CreateAdd(B.CreateZExt(Count, B.getInt64Ty()), B.getInt64(1),
                     "trip.count");
}

} // namespace enzyme
