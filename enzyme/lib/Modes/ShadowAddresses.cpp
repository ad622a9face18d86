//===- ShadowAddresses.cpp - Shadows of addresses computed as integers ----===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/ShadowAddresses.h"
#include "Analysis/ActivityAnalysis.h"

#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace enzyme {

/// \p Int rebuilt with the one ptrtoint it reaches through its
/// address-carrying operands reading \p Shadow instead.
static Value *rebuild(IRBuilder<> &B, Value *Int, Value *Shadow) {
  if (isa<PtrToIntInst>(Int))
    return B.CreatePtrToInt(Shadow, Int->getType());
  auto *Op = cast<BinaryOperator>(Int);
  // Flags may be computed from the address too: the tag says which side
  // carries it.
  unsigned Address = Op->getOpcode() == Instruction::Or
                         ? unsigned(taggedBitsOperand(Op))
                     : computedFromAddress(Op->getOperand(0)) ? 0
                                                              : 1;
  Value *Operands[2] = {Op->getOperand(0), Op->getOperand(1)};
  Operands[Address] = rebuild(B, Operands[Address], Shadow);
  return B.CreateBinOp(Op->getOpcode(), Operands[0], Operands[1]);
}

Value *shadowOfAddressArithmetic(IRBuilder<> &B, Value *Int, Value *Shadow,
                                 Type *PtrTy, const Twine &Name) {
  return B.CreateIntToPtr(rebuild(B, Int, Shadow), PtrTy, Name);
}

Value *retagShadowBits(IRBuilder<> &B, Value *Int, Value *ShadowBits) {
  if (isa<LoadInst>(Int))
    return ShadowBits;
  auto *Op = cast<BinaryOperator>(Int);
  int Bits = taggedBitsOperand(Op);
  assert(Bits >= 0 && "not a tagged load's bits");
  Value *Operands[2] = {Op->getOperand(0), Op->getOperand(1)};
  Operands[Bits] = retagShadowBits(B, Operands[Bits], ShadowBits);
  return B.CreateBinOp(Op->getOpcode(), Operands[0], Operands[1]);
}

} // namespace enzyme
