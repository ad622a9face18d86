//===- TripCount.cpp - Loop trip counts and final counter values as IR ----===//
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

/// Straight-line code for SCEV expressions invariant in a loop. Unlike
/// SCEVExpander it never adds induction variables to the function (a
/// recurrence of an enclosing loop is the header phi it describes), and it
/// emits into any function: Map gives the value to use for each leaf.
/// Without a builder it only checks that it could, visiting every leaf.
/// Expands expressions of values from outside loop L (or, without L,
/// of any values Map can give) and of header phis of loops around L.
class InvariantExpander {
public:
  InvariantExpander(const Loop *L, ScalarEvolution &SE, IRBuilder<> *B,
                    function_ref<Value *(Value *)> Map)
      : L(L), SE(SE), B(B), Map(Map) {}

  Value *expand(const SCEV *S) {
    if (auto *C = dyn_cast<SCEVConstant>(S))
      return C->getValue();
    if (auto *U = dyn_cast<SCEVUnknown>(S)) {
      auto *I = dyn_cast<Instruction>(U->getValue());
      if (I && L && L->contains(I))
        return nullptr;
      return Map(U->getValue());
    }
    if (auto *Rec = dyn_cast<SCEVAddRecExpr>(S)) {
      const Loop *Outer = Rec->getLoop();
      if (!L || Outer == L || !Outer->contains(L))
        return nullptr;
      for (PHINode &Phi : Outer->getHeader()->phis())
        if (SE.isSCEVable(Phi.getType()) && SE.getSCEV(&Phi) == S)
          return Map(&Phi);
      return nullptr;
    }
    if (auto *Div = dyn_cast<SCEVUDivExpr>(S)) {
      auto *Divisor = dyn_cast<SCEVConstant>(Div->getRHS());
      Value *LHS = expand(Div->getLHS());
      if (!Divisor || Divisor->getValue()->isZero() || !LHS)
        return nullptr;
      return B ? B->CreateUDiv(LHS, Divisor->getValue()) : LHS;
    }
    if (auto *Cast = dyn_cast<SCEVCastExpr>(S)) {
      Value *Op = expand(Cast->getOperand(0));
      if (!Op || !B)
        return Op;
      switch (S->getSCEVType()) {
      case scTruncate:
        return B->CreateTrunc(Op, S->getType());
      case scZeroExtend:
        return B->CreateZExt(Op, S->getType());
      case scSignExtend:
        return B->CreateSExt(Op, S->getType());
      case scPtrToInt:
        return B->CreatePtrToInt(Op, S->getType());
      default:
        return nullptr;
      }
    }
    auto *NAry = dyn_cast<SCEVNAryExpr>(S);
    if (!NAry || isa<SCEVSequentialMinMaxExpr>(S))
      return nullptr;
    Value *Result = nullptr;
    for (const SCEV *Op : NAry->operands()) {
      Value *V = expand(Op);
      if (!V)
        return nullptr;
      Result = !Result || !B ? V : combine(S->getSCEVType(), Result, V);
    }
    return Result;
  }

private:
  Value *combine(SCEVTypes Kind, Value *L, Value *R) {
    switch (Kind) {
    case scAddExpr:
      // A pointer's expression adds integers to one pointer.
      if (L->getType()->isPointerTy())
        return B->CreatePtrAdd(L, R);
      if (R->getType()->isPointerTy())
        return B->CreatePtrAdd(R, L);
      return B->CreateAdd(L, R);
    case scMulExpr:
      return B->CreateMul(L, R);
    case scSMaxExpr:
      return B->CreateBinaryIntrinsic(Intrinsic::smax, L, R);
    case scUMaxExpr:
      return B->CreateBinaryIntrinsic(Intrinsic::umax, L, R);
    case scSMinExpr:
      return B->CreateBinaryIntrinsic(Intrinsic::smin, L, R);
    case scUMinExpr:
      return B->CreateBinaryIntrinsic(Intrinsic::umin, L, R);
    default:
      llvm_unreachable("not an n-ary expression the expander emits");
    }
  }

  const Loop *L;
  ScalarEvolution &SE;
  IRBuilder<> *B;
  function_ref<Value *(Value *)> Map;
};

/// A usable backedge-taken count of \p L, or null.
const SCEV *takenCount(Loop &L, ScalarEvolution &SE) {
  const SCEV *Taken = SE.getBackedgeTakenCount(&L);
  if (isa<SCEVCouldNotCompute>(Taken) || !Taken->getType()->isIntegerTy() ||
      Taken->getType()->getIntegerBitWidth() > 64)
    return nullptr;
  return Taken;
}

} // namespace

Value *emitTripCount(Loop &L, ScalarEvolution &SE, IRBuilder<> &B,
                     function_ref<Value *(Value *)> Map) {
  const SCEV *Taken = takenCount(L, SE);
  if (!Taken || !InvariantExpander(&L, SE, nullptr, Map).expand(Taken))
    return nullptr;
  Value *Count = InvariantExpander(&L, SE, &B, Map).expand(Taken);
  return B.CreateAdd(B.CreateZExt(Count, B.getInt64Ty()), B.getInt64(1),
                     "trip.count");
}

const SCEV *counterFinalValue(PHINode &Counter, Loop &L, ScalarEvolution &SE,
                              SmallVectorImpl<Value *> &Leaves) {
  // With one exit, at the latch, the counter's last value is its value in
  // iteration number `backedge-taken count`.
  if (L.getExitingBlock() != L.getLoopLatch() ||
      !SE.isSCEVable(Counter.getType()))
    return nullptr;
  const SCEV *Taken = takenCount(L, SE);
  auto *Rec = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&Counter));
  if (!Taken || !Rec || Rec->getLoop() != &L || !Rec->isAffine())
    return nullptr;
  const SCEV *Final = Rec->evaluateAtIteration(Taken, SE);
  Leaves.clear();
  auto Collect = [&](Value *V) -> Value * {
    Leaves.push_back(V);
    return V;
  };
  if (!InvariantExpander(&L, SE, nullptr, Collect).expand(Final))
    return nullptr;
  return Final;
}

Value *emitInvariant(const SCEV *S, Loop &L, ScalarEvolution &SE,
                     IRBuilder<> &B, function_ref<Value *(Value *)> Map) {
  return InvariantExpander(&L, SE, &B, Map).expand(S);
}

Value *emitExpression(const SCEV *S, ScalarEvolution &SE, IRBuilder<> &B,
                      function_ref<Value *(Value *)> Map) {
  return InvariantExpander(nullptr, SE, &B, Map).expand(S);
}

} // namespace enzyme
