//===- FloatSignMasks.cpp - Sign-bit masks on float bits ------------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/FloatSignMasks.h"

#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

namespace {
/// What a constant does to the sign bit of each float element, the other
/// bits left as they are.
enum class SignMask { None, AllButSign, OnlySign };
} // namespace

/// Classifies \p Mask, read as elements of \p FloatTy's element width.
static SignMask classifyMask(Constant *Mask, Type *FloatTy,
                             const DataLayout &DL) {
  Type *Elem = FloatTy->getScalarType();
  unsigned Bits = Elem->getPrimitiveSizeInBits().getFixedValue();
  // x86_fp80 and ppc_fp128 keep their sign bit elsewhere.
  if (!Elem->isIEEELikeFPTy())
    return SignMask::None;
  Type *LaneTy =
      FloatTy->getWithNewType(IntegerType::get(Mask->getContext(), Bits));
  auto *Lanes = ConstantFoldCastOperand(Instruction::BitCast, Mask, LaneTy, DL);
  if (!Lanes)
    return SignMask::None;
  APInt Sign = APInt::getSignMask(Bits);
  SignMask Kind = SignMask::None;
  unsigned N = isa<VectorType>(LaneTy)
                   ? cast<FixedVectorType>(LaneTy)->getNumElements()
                   : 1;
  for (unsigned I = 0; I < N; ++I) {
    Constant *Elt =
        isa<VectorType>(LaneTy) ? Lanes->getAggregateElement(I) : Lanes;
    // A poison lane (the lanes optimised code does not use) fits either.
    if (Elt && isa<UndefValue>(Elt))
      continue;
    auto *Lane = dyn_cast_or_null<ConstantInt>(Elt);
    if (!Lane)
      return SignMask::None;
    SignMask This = Lane->getValue() == Sign    ? SignMask::OnlySign
                    : Lane->getValue() == ~Sign ? SignMask::AllButSign
                                                : SignMask::None;
    if (This == SignMask::None || (Kind != SignMask::None && This != Kind))
      return SignMask::None;
    Kind = This;
  }
  return Kind;
}

/// The floating-point type whose bits \p Bits, an operand of \p Op, are:
/// named by the bitcast that made them, or by one that reads the result
/// (optimised code loads a packet of doubles as <2 x i64>).
static Type *floatTypeOfBits(const Instruction &Op, const Value *Bits) {
  auto IsFloatOfSize = [&](Type *Ty) {
    return Ty->isFPOrFPVectorTy() && !isa<ScalableVectorType>(Ty) &&
           Ty->getPrimitiveSizeInBits() ==
               Op.getType()->getPrimitiveSizeInBits();
  };
  if (auto *Cast = dyn_cast<BitCastInst>(Bits);
      Cast && IsFloatOfSize(Cast->getSrcTy()))
    return Cast->getSrcTy();
  for (const User *U : Op.users())
    if (auto *Cast = dyn_cast<BitCastInst>(U);
        Cast && IsFloatOfSize(Cast->getDestTy()))
      return Cast->getDestTy();
  return nullptr;
}

/// The float of type \p FloatTy whose bits \p Bits are: the float a
/// bitcast made them from, or their bitcast back.
static Value *floatOfBits(IRBuilder<> &B, Value *Bits, Type *FloatTy) {
  auto *Cast = dyn_cast<BitCastInst>(Bits);
  return Cast && Cast->getSrcTy() == FloatTy ? Cast->getOperand(0)
                                             : B.CreateBitCast(Bits, FloatTy);
}

/// `or (bits A), (and (bits B), sign)` gives A the sign of B where B is
/// negative: cuda_fp16's hsin takes the sign of a result, works on its
/// absolute value and puts the sign back this way. The value is |A|,
/// negated in the lanes whose sign bit the `or` sets; the `or` itself stays,
/// read only for those sign bits. `xor (bits A), (and (bits B), sign)` is A
/// negated where B is negative. True if \p Op was rewritten.
static bool foldSignTransfer(BinaryOperator &Op, const DataLayout &DL) {
  bool IsOr = Op.getOpcode() == Instruction::Or;
  if (!IsOr && Op.getOpcode() != Instruction::Xor)
    return false;
  for (unsigned Side = 0; Side < 2; ++Side) {
    Value *Bits = Op.getOperand(Side);
    auto *SignOfOther = dyn_cast<BinaryOperator>(Op.getOperand(1 - Side));
    Type *FloatTy = floatTypeOfBits(Op, Bits);
    if (!FloatTy || !SignOfOther ||
        SignOfOther->getOpcode() != Instruction::And)
      continue;
    auto *Mask = dyn_cast<Constant>(SignOfOther->getOperand(1));
    if (!Mask || classifyMask(Mask, FloatTy, DL) != SignMask::OnlySign)
      continue;
    SmallVector<Use *, 4> Readers(make_pointer_range(Op.uses()));
    IRBuilder<> B(Op.getNextNode());
    Value *X = floatOfBits(B, Bits, FloatTy);
    Value *Magnitude = IsOr ? B.CreateUnaryIntrinsic(Intrinsic::fabs, X) : X;
    unsigned Width = FloatTy->getScalarSizeInBits();
    Type *LaneTy =
        FloatTy->getWithNewType(IntegerType::get(Op.getContext(), Width));
    Value *SignBits = IsOr ? &Op : SignOfOther;
    Value *Negative = B.CreateICmpSLT(B.CreateBitCast(SignBits, LaneTy),
                                      Constant::getNullValue(LaneTy));
    Value *Result = B.CreateBitCast(
        B.CreateSelect(Negative, B.CreateFNeg(Magnitude), Magnitude),
        Op.getType());
    for (Use *U : Readers)
      U->set(Result);
    return true;
  }
  return false;
}

bool foldFloatSignMasks(Function &F) {
  const DataLayout &DL = F.getDataLayout();
  SmallVector<Instruction *, 4> Folded;
  bool Changed = false;
  for (Instruction &I : make_early_inc_range(instructions(F))) {
    auto *Op = dyn_cast<BinaryOperator>(&I);
    if (Op && foldSignTransfer(*Op, DL)) {
      Changed = true;
      continue;
    }
    if (!Op || (Op->getOpcode() != Instruction::And &&
                Op->getOpcode() != Instruction::Xor &&
                Op->getOpcode() != Instruction::Or))
      continue;
    for (unsigned Side = 0; Side < 2; ++Side) {
      auto *Mask = dyn_cast<Constant>(Op->getOperand(1 - Side));
      Value *Bits = Op->getOperand(Side);
      Type *FloatTy = floatTypeOfBits(*Op, Bits);
      if (!Mask || !FloatTy)
        continue;
      SignMask Kind = classifyMask(Mask, FloatTy, DL);
      // and ~sign: |x|; xor sign: -x; or sign: -|x|. (and sign keeps only
      // the sign, which is not a float operation.)
      unsigned Opcode = Op->getOpcode();
      bool Abs = Kind == SignMask::AllButSign && Opcode == Instruction::And;
      bool Neg = Kind == SignMask::OnlySign && Opcode == Instruction::Xor;
      bool NegAbs = Kind == SignMask::OnlySign && Opcode == Instruction::Or;
      if (!Abs && !Neg && !NegAbs)
        continue;
      IRBuilder<> B(Op);
      Value *X = floatOfBits(B, Bits, FloatTy);
      Value *Result = Neg ? X : B.CreateUnaryIntrinsic(Intrinsic::fabs, X);
      if (Neg || NegAbs)
        Result = B.CreateFNeg(Result);
      Op->replaceAllUsesWith(B.CreateBitCast(Result, Op->getType()));
      Folded.push_back(Op);
      break;
    }
  }
  for (Instruction *Op : Folded) {
    auto *Cast = dyn_cast<BitCastInst>(Op->getOperand(0));
    auto *Other = dyn_cast<BitCastInst>(Op->getOperand(1));
    Op->eraseFromParent();
    for (BitCastInst *C : {Cast, Other})
      if (C && C->use_empty())
        C->eraseFromParent();
  }
  return Changed || !Folded.empty();
}

} // namespace enzyme
