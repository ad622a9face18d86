//===- TangentLanes.cpp - Tangents of several directions at once ---------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Vector mode (`enzyme_width, N`) widens every tangent to N lanes, one
/// direction per lane (shadowType): a <N x T> for a float or double, so
/// that the lanes live in vector registers, and an [N x T] for the rest (the
/// shadow of a pointer is an [N x ptr], one shadow per direction). The
/// rules keep their scalar code and apply it lane by lane; whatever does not
/// depend on the direction (the primal values, the partials of a math
/// function) is computed once, before the lanes, so the lanes form N
/// isomorphic chains that the SLP vectoriser turns into vector arithmetic.
///
//===----------------------------------------------------------------------===//

#include "Modes/TangentBuilder.h"

using namespace llvm;

namespace enzyme {

/// Lane \p K of the tangent \p T.
static Value *lane(IRBuilder<> &B, Value *T, unsigned K) {
  if (T->getType()->isVectorTy())
    return B.CreateExtractElement(T, K);
  return B.CreateExtractValue(T, K);
}

Value *insertLane(IRBuilder<> &B, Value *T, Value *Lane, unsigned K) {
  if (T->getType()->isVectorTy())
    return B.CreateInsertElement(T, Lane, K);
  return B.CreateInsertValue(T, Lane, K);
}

Value *TangentBuilder::perLane(IRBuilder<> &B, ArrayRef<Value *> Ts, Type *Ty,
                               function_ref<Value *(ArrayRef<Value *>)> Rule) {
  if (Sig.Width == 1)
    return Rule(Ts);
  Value *Result = PoisonValue::get(tangentType(Ty));
  SmallVector<Value *, 3> Lane;
  for (unsigned K = 0; K < Sig.Width; ++K) {
    Lane.clear();
    for (Value *T : Ts)
      Lane.push_back(lane(B, T, K));
    Result = insertLane(B, Result, Rule(Lane), K);
  }
  return Result;
}

void TangentBuilder::forEachLane(IRBuilder<> &B, ArrayRef<Value *> Ts,
                                 function_ref<void(ArrayRef<Value *>)> Rule) {
  if (Sig.Width == 1) {
    Rule(Ts);
    return;
  }
  SmallVector<Value *, 3> Lane;
  for (unsigned K = 0; K < Sig.Width; ++K) {
    Lane.clear();
    for (Value *T : Ts)
      Lane.push_back(lane(B, T, K));
    Rule(Lane);
  }
}

} // namespace enzyme
