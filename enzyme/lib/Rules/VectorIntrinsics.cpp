//===- VectorIntrinsics.cpp - SIMD intrinsics with derivatives ------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Rules/VectorIntrinsics.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace enzyme {

/// \p V is a fixed-width vector of floating-point values.
static bool isFixedFPVector(const Value *V) {
  auto *VT = dyn_cast<FixedVectorType>(V->getType());
  return VT && VT->getElementType()->isFloatingPointTy();
}

std::optional<VectorIntrinsic> classifyVectorIntrinsic(const CallBase &Call) {
  const auto *II = dyn_cast<IntrinsicInst>(&Call);
  if (!II)
    return std::nullopt;
  switch (II->getIntrinsicID()) {
  case Intrinsic::vector_reduce_fadd:
    if (isFixedFPVector(II->getArgOperand(1)))
      return VectorIntrinsic::ReduceFAdd;
    break;
  case Intrinsic::vector_reduce_fmul:
    if (isFixedFPVector(II->getArgOperand(1)))
      return VectorIntrinsic::ReduceFMul;
    break;
  case Intrinsic::vector_reduce_fmax:
  case Intrinsic::vector_reduce_fmin:
  case Intrinsic::vector_reduce_fmaximum:
  case Intrinsic::vector_reduce_fminimum:
    if (isFixedFPVector(II->getArgOperand(0)))
      return VectorIntrinsic::ReduceFMaxMin;
    break;
  case Intrinsic::masked_load:
    if (isFixedFPVector(II))
      return VectorIntrinsic::MaskedLoad;
    break;
  case Intrinsic::masked_store:
    if (isFixedFPVector(II->getArgOperand(0)))
      return VectorIntrinsic::MaskedStore;
    break;
  default:
    break;
  }
  return std::nullopt;
}

Value *reductionWinner(IRBuilderBase &B, Value *Vec, Value *Result) {
  unsigned N = cast<FixedVectorType>(Vec->getType())->getNumElements();
  Value *Mask = Constant::getNullValue(FixedVectorType::get(B.getInt1Ty(), N));
  Value *Found = B.getFalse();
  for (unsigned I = 0; I < N; ++I) {
    Value *Equal = B.CreateFCmpOEQ(B.CreateExtractElement(Vec, I), Result);
    Value *Wins = B.CreateAnd(Equal, B.CreateNot(Found));
    Mask = B.CreateInsertElement(Mask, Wins, I);
    Found = B.CreateOr(Found, Equal);
  }
  return Mask;
}

Value *productOfOthers(IRBuilderBase &B, Value *Start, Value *Vec) {
  unsigned N = cast<FixedVectorType>(Vec->getType())->getNumElements();
  SmallVector<Value *, 16> Elements;
  for (unsigned I = 0; I < N; ++I)
    Elements.push_back(B.CreateExtractElement(Vec, I));
  // Prefix and suffix products: Before[i] = start * v[0..i), After[i] =
  // v(i..N).
  SmallVector<Value *, 16> Before(N), After(N);
  Value *P = Start;
  for (unsigned I = 0; I < N; ++I) {
    Before[I] = P;
    P = B.CreateFMul(P, Elements[I]);
  }
  Value *S = ConstantFP::get(Start->getType(), 1.0);
  for (unsigned I = N; I-- > 0;) {
    After[I] = S;
    S = B.CreateFMul(S, Elements[I]);
  }
  Value *Result = PoisonValue::get(Vec->getType());
  for (unsigned I = 0; I < N; ++I)
    Result =
        B.CreateInsertElement(Result, B.CreateFMul(Before[I], After[I]), I);
  return Result;
}

} // namespace enzyme
