//===- FloatBitFields.cpp - A float's fields rewritten in its bits --------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/FloatBitFields.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"

#include <cmath>
#include <optional>

using namespace llvm;

namespace enzyme {

namespace {
/// The fields of an IEEE binary format of Width bits: Fraction bits of
/// mantissa below Exponent bits of exponent below the sign.
struct Format {
  unsigned Width, Fraction, Exponent;
  int Bias;
  APInt mantissa() const { return APInt::getLowBitsSet(Width, Fraction); }
  APInt sign() const { return APInt::getSignMask(Width); }
  APInt exponent() const {
    return APInt::getBitsSet(Width, Fraction, Width - 1);
  }
  unsigned maxExponent() const { return (1u << Exponent) - 1; }
};

/// One rewrite: the bits of X, masked with Mask, or-ed with Set.
struct Replacement {
  BinaryOperator *Or;
  Value *X;
  Format F;
  bool KeepsSign, SetsSign;
  unsigned NewExponent;
};
} // namespace

static std::optional<Format> formatOf(Type *Ty) {
  if (Ty->isFloatTy())
    return Format{32, 23, 8, 127};
  if (Ty->isDoubleTy())
    return Format{64, 52, 11, 1023};
  return std::nullopt;
}

/// `or (and (bitcast x), Mask), Set` (either order) as a replacement of
/// x's exponent, or nothing.
static std::optional<Replacement> asReplacement(BinaryOperator &Or) {
  if (Or.getOpcode() != Instruction::Or || !Or.getType()->isIntegerTy())
    return std::nullopt;
  for (unsigned Side = 0; Side < 2; ++Side) {
    auto *Masked = dyn_cast<BinaryOperator>(Or.getOperand(Side));
    auto *Set = dyn_cast<ConstantInt>(Or.getOperand(1 - Side));
    if (!Masked || !Set || Masked->getOpcode() != Instruction::And)
      continue;
    auto *Mask = dyn_cast<ConstantInt>(Masked->getOperand(1));
    auto *Cast = dyn_cast<BitCastInst>(Masked->getOperand(0));
    if (!Mask || !Cast)
      continue;
    std::optional<Format> F = formatOf(Cast->getSrcTy());
    if (!F || F->Width != Or.getType()->getIntegerBitWidth())
      continue;
    const APInt &M = Mask->getValue(), &C = Set->getValue();
    // The mask keeps the whole mantissa and no exponent bit; the constant
    // sets no mantissa bit and a normal exponent.
    if ((M & F->mantissa()) != F->mantissa() || (M & F->exponent()) != 0 ||
        (C & F->mantissa()) != 0)
      continue;
    unsigned E = C.lshr(F->Fraction).getLoBits(F->Exponent).getZExtValue();
    if (E == 0 || E == F->maxExponent())
      continue;
    return Replacement{&Or,
                       Cast->getOperand(0),
                       *F,
                       (M & F->sign()) != 0,
                       (C & F->sign()) != 0,
                       E};
  }
  return std::nullopt;
}

/// \p V times 2^\p Power in two steps of half the power each: the values
/// are ldexp's, and so is the derivative, but no factor is infinite (2^1026
/// is), where a branch that a select does not take would multiply a zero
/// adjoint by it and get NaN.
static Value *scaleByPowerOfTwo(IRBuilder<> &B, Value *V, Value *Power) {
  Type *Ty = V->getType(), *I32 = B.getInt32Ty();
  Value *Half = B.CreateSDiv(Power, B.getInt32(2));
  Value *First = B.CreateIntrinsic(Intrinsic::ldexp, {Ty, I32}, {V, Half});
  return B.CreateIntrinsic(Intrinsic::ldexp, {Ty, I32},
                           {First, B.CreateSub(Power, Half)});
}

/// The biased exponent field of the float whose bits are \p Bits, as an i32.
static Value *exponentField(IRBuilder<> &B, Value *Bits, const Format &F) {
  return B.CreateTrunc(
      B.CreateAnd(B.CreateLShr(Bits, F.Fraction), F.maxExponent()),
      B.getInt32Ty());
}

static void replace(const Replacement &R) {
  BinaryOperator &Or = *R.Or;
  const Format &F = R.F;
  IRBuilder<> B(&Or);
  Type *FloatTy = R.X->getType(), *IntTy = Or.getType();
  Value *Bits = B.CreateBitCast(R.X, IntTy);
  Value *Exponent = exponentField(B, Bits, F);
  Value *Abs = B.CreateUnaryIntrinsic(Intrinsic::fabs, R.X);
  int NewExponent = int(R.NewExponent);
  // Normal x: the mantissa kept, the exponent moved.
  Value *Normal =
      scaleByPowerOfTwo(B, Abs, B.CreateSub(B.getInt32(NewExponent), Exponent));
  // Zero and subnormal x: the mantissa behind an implicit one.
  Value *Subnormal = B.CreateFAdd(
      ConstantFP::get(FloatTy, std::ldexp(1.0, NewExponent - F.Bias)),
      scaleByPowerOfTwo(B, Abs, B.getInt32(NewExponent - 1)));
  // Infinity and NaN: the payload as a mantissa, as a number.
  Value *Payload = B.CreateUIToFP(
      B.CreateAnd(Bits, ConstantInt::get(IntTy, F.mantissa())), FloatTy);
  Value *Special = scaleByPowerOfTwo(
      B,
      B.CreateFAdd(
          ConstantFP::get(FloatTy, 1.0),
          B.CreateFMul(
              Payload,
              ConstantFP::get(FloatTy, std::ldexp(1.0, -int(F.Fraction))))),
      B.getInt32(NewExponent - F.Bias));
  Value *Magnitude = B.CreateSelect(
      B.CreateICmpEQ(Exponent, B.getInt32(0)), Subnormal,
      B.CreateSelect(B.CreateICmpEQ(Exponent, B.getInt32(F.maxExponent())),
                     Special, Normal));
  Value *Result = Magnitude;
  if (R.KeepsSign)
    Result =
        B.CreateIntrinsic(Intrinsic::copysign, {FloatTy}, {Magnitude, R.X});
  if (R.SetsSign)
    Result = B.CreateFNeg(B.CreateUnaryIntrinsic(Intrinsic::fabs, Result));
  Or.replaceAllUsesWith(B.CreateBitCast(Result, IntTy));
  Or.eraseFromParent();
}

/// `and (bitcast x), H`, where H keeps the sign, the exponent and the high
/// bits of the mantissa: the number of mantissa bits kept, or nothing.
static std::optional<unsigned> keptMantissaBits(BinaryOperator &And, Value *&X,
                                                Format &F) {
  if (And.getOpcode() != Instruction::And || !And.getType()->isIntegerTy())
    return std::nullopt;
  auto *Mask = dyn_cast<ConstantInt>(And.getOperand(1));
  auto *Cast = dyn_cast<BitCastInst>(And.getOperand(0));
  std::optional<Format> Fmt = Cast ? formatOf(Cast->getSrcTy()) : std::nullopt;
  if (!Mask || !Fmt || Fmt->Width != And.getType()->getIntegerBitWidth())
    return std::nullopt;
  const APInt &M = Mask->getValue();
  unsigned High = M.countl_one();
  if (High != M.popcount() || High < 1 + Fmt->Exponent || High >= Fmt->Width)
    return std::nullopt;
  X = Cast->getOperand(0);
  F = *Fmt;
  return High - 1 - Fmt->Exponent;
}

/// x with all but its Kept high mantissa bits cleared: x scaled so that
/// those bits are its integer part, truncated, scaled back (exact). Zero
/// and subnormal x scale as the smallest normal exponent; an infinity
/// stays, and a NaN stays a NaN unless the bits kept make it an infinity.
static void truncate(BinaryOperator &And, Value *X, const Format &F,
                     unsigned Kept) {
  IRBuilder<> B(&And);
  Type *FloatTy = X->getType(), *IntTy = And.getType();
  Value *Bits = B.CreateBitCast(X, IntTy);
  Value *Exponent = exponentField(B, Bits, F);
  Value *Power =
      B.CreateSub(B.CreateSelect(B.CreateICmpEQ(Exponent, B.getInt32(0)),
                                 B.getInt32(1), Exponent),
                  B.getInt32(F.Bias));
  Value *Shift = B.CreateSub(B.getInt32(int(Kept)), Power);
  Value *Scaled = scaleByPowerOfTwo(B, X, Shift);
  Value *Truncated = B.CreateUnaryIntrinsic(Intrinsic::trunc, Scaled);
  Value *Back = scaleByPowerOfTwo(B, Truncated, B.CreateNeg(Shift));
  // Infinity or NaN: the mantissa bits kept say which.
  APInt KeptMantissa =
      cast<ConstantInt>(And.getOperand(1))->getValue() & F.mantissa();
  Value *Payload = B.CreateAnd(Bits, ConstantInt::get(IntTy, KeptMantissa));
  Value *Special =
      B.CreateSelect(B.CreateICmpEQ(Payload, ConstantInt::get(IntTy, 0)),
                     B.CreateIntrinsic(Intrinsic::copysign, {FloatTy},
                                       {ConstantFP::getInfinity(FloatTy), X}),
                     X);
  Value *Result = B.CreateSelect(
      B.CreateICmpEQ(Exponent, B.getInt32(F.maxExponent())), Special, Back);
  And.replaceAllUsesWith(B.CreateBitCast(Result, IntTy));
  And.eraseFromParent();
}

namespace {
struct Truncation {
  BinaryOperator *And;
  Value *X;
  Format F;
  unsigned Kept;
};
} // namespace

bool rewriteFloatBitFields(Function &F) {
  SmallVector<Replacement, 2> Replacements;
  SmallVector<Truncation, 2> Truncations;
  for (Instruction &I : instructions(F)) {
    auto *Op = dyn_cast<BinaryOperator>(&I);
    if (!Op)
      continue;
    if (std::optional<Replacement> R = asReplacement(*Op)) {
      Replacements.push_back(*R);
      continue;
    }
    Truncation T{Op, nullptr, {}, 0};
    if (std::optional<unsigned> Kept = keptMantissaBits(*Op, T.X, T.F)) {
      T.Kept = *Kept;
      Truncations.push_back(T);
    }
  }
  for (const Replacement &R : Replacements)
    replace(R);
  for (const Truncation &T : Truncations)
    truncate(*T.And, T.X, T.F, T.Kept);
  return !Replacements.empty() || !Truncations.empty();
}

} // namespace enzyme
