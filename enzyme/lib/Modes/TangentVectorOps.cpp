//===- TangentVectorOps.cpp - Tangents of SIMD intrinsics -----------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Forward mode of the reductions and masked memory accesses of vectorised
/// code (Rules/VectorIntrinsics.h); shufflevector is with the other
/// instructions in TangentBuilder.cpp. The tangents stay vector operations.
///
//===----------------------------------------------------------------------===//

#include "Modes/TangentBuilder.h"

#include "Rules/VectorIntrinsics.h"

#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace enzyme {

bool TangentBuilder::differentiateVectorIntrinsic(CallBase &Call,
                                                  VectorIntrinsic Kind,
                                                  IRBuilder<> &B) {
  auto T = [&](unsigned A) { return tangent(Call.getArgOperand(A)); };
  Type *Ty = Call.getType();
  switch (Kind) {
  case VectorIntrinsic::MaskedStore: {
    Value *Ptr = Call.getArgOperand(1);
    if (!Activity.isShadowed(Ptr))
      return true;
    Align Alignment = cast<ConstantInt>(Call.getArgOperand(2))->getAlignValue();
    Value *Mask = primal(Call.getArgOperand(3));
    forEachLane(B, {T(0), tangent(Ptr)}, [&](ArrayRef<Value *> L) {
      B.CreateMaskedStore(L[0], L[1], Alignment, Mask);
    });
    return true;
  }
  case VectorIntrinsic::MaskedLoad: {
    if (!Activity.isActive(&Call))
      return true;
    Align Alignment = cast<ConstantInt>(Call.getArgOperand(1))->getAlignValue();
    Value *Mask = primal(Call.getArgOperand(2));
    setTangent(&Call, perLane(B, {tangent(Call.getArgOperand(0)), T(3)}, Ty,
                              [&](ArrayRef<Value *> L) -> Value * {
                                return B.CreateMaskedLoad(Ty, L[0], Alignment,
                                                          Mask, L[1]);
                              }));
    return true;
  }
  default:
    break;
  }
  if (!Activity.isActive(&Call))
    return true;
  Value *Zero = ConstantFP::getNegativeZero(Ty);
  switch (Kind) {
  case VectorIntrinsic::ReduceFAdd:
    // d(start + sum v) = d start + sum d v.
    setTangent(&Call, perLane(B, {T(0), T(1)}, Ty, [&](ArrayRef<Value *> L) {
      return B.CreateFAdd(L[0], B.CreateFAddReduce(Zero, L[1]));
    }));
    return true;
  case VectorIntrinsic::ReduceFMul: {
    // d(start * prod v) = d start * prod v + sum_i d v_i * (start * prod of
    // the others).
    Value *Start = primal(Call.getArgOperand(0));
    Value *Vec = primal(Call.getArgOperand(1));
    Value *Product = B.CreateFMulReduce(ConstantFP::get(Ty, 1.0), Vec);
    Value *Others = productOfOthers(B, Start, Vec);
    setTangent(&Call, perLane(B, {T(0), T(1)}, Ty, [&](ArrayRef<Value *> L) {
      return B.CreateFAdd(B.CreateFMul(L[0], Product),
                          B.CreateFAddReduce(Zero, B.CreateFMul(L[1], Others)));
    }));
    return true;
  }
  case VectorIntrinsic::ReduceFMaxMin: {
    // The tangent of the element the reduction picked.
    Value *Winner =
        reductionWinner(B, primal(Call.getArgOperand(0)), primal(&Call));
    Value *Zeros =
        ConstantFP::getNegativeZero(Call.getArgOperand(0)->getType());
    setTangent(&Call, perLane(B, {T(0)}, Ty, [&](ArrayRef<Value *> L) {
      return B.CreateFAddReduce(Zero, B.CreateSelect(Winner, L[0], Zeros));
    }));
    return true;
  }
  default:
    return true;
  }
}

} // namespace enzyme
