//===- Lanes.cpp - Derivatives of several directions at once --------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/Lanes.h"

using namespace llvm;

namespace enzyme {

Type *shadowType(Type *Ty, unsigned Width) {
  if (Width == 1 || Ty->isVoidTy())
    return Ty;
  // Vector registers hold the directions of a scalar float: the arithmetic
  // on them is one vector instruction after SLP vectorisation.
  if (Ty->isFloatTy() || Ty->isDoubleTy())
    return FixedVectorType::get(Ty, Width);
  return ArrayType::get(Ty, Width);
}

Value *extractLane(IRBuilder<> &B, Value *Lanes, unsigned K) {
  if (Lanes->getType()->isVectorTy())
    return B.CreateExtractElement(Lanes, K);
  return B.CreateExtractValue(Lanes, K);
}

Value *insertLane(IRBuilder<> &B, Value *Lanes, Value *Lane, unsigned K) {
  if (Lanes->getType()->isVectorTy())
    return B.CreateInsertElement(Lanes, Lane, K);
  return B.CreateInsertValue(Lanes, Lane, K);
}

Value *mapLanes(IRBuilder<> &B, unsigned Width, ArrayRef<Value *> Operands,
                Type *Ty, function_ref<Value *(ArrayRef<Value *>)> Rule) {
  if (Width == 1)
    return Rule(Operands);
  Value *Result = PoisonValue::get(shadowType(Ty, Width));
  SmallVector<Value *, 3> Lane;
  for (unsigned K = 0; K < Width; ++K) {
    Lane.clear();
    for (Value *Op : Operands)
      Lane.push_back(extractLane(B, Op, K));
    Result = insertLane(B, Result, Rule(Lane), K);
  }
  return Result;
}

void forEachLane(IRBuilder<> &B, unsigned Width, ArrayRef<Value *> Operands,
                 function_ref<void(ArrayRef<Value *>, unsigned)> Rule) {
  if (Width == 1) {
    Rule(Operands, 0);
    return;
  }
  SmallVector<Value *, 3> Lane;
  for (unsigned K = 0; K < Width; ++K) {
    Lane.clear();
    for (Value *Op : Operands)
      Lane.push_back(extractLane(B, Op, K));
    Rule(Lane, K);
  }
}

} // namespace enzyme
