//===- SpecialFunctions.cpp - Hooks for rules beyond libm -----------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Rules/SpecialFunctions.h"
#include "Core/ReusableFunctions.h"
#include "Rules/DerivativeExpr.h"

#include "llvm/IR/Module.h"

#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace enzyme::rules {

/// Builds `internal T enzyme.digamma.T(T x)`:
///   x < 0.5:  ψ(x) = ψ(1 - x) - π / tan(πx)          (reflection)
///   else:     ψ(x) = ψ(x + n) - Σ 1/(x + k), x + n ≥ 6 (recurrence)
///             ψ(y) ≈ ln y - 1/2y - Σ B₂ₖ / (2k y²ᵏ)     (asymptotic series)
static Function *getOrCreateDigamma(Module &M, Type *Ty) {
  std::string Name = "enzyme.digamma.";
  raw_string_ostream(Name) << *Ty;
  auto *FT = FunctionType::get(Ty, {Ty}, false);
  if (Function *F = findReusableFunction(M, Name, FT))
    return F;
  auto *F = Function::Create(FT, GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoUnwind);
  F->addFnAttr(Attribute::WillReturn);
  LLVMContext &Ctx = M.getContext();
  auto *Entry = BasicBlock::Create(Ctx, "entry", F);
  auto *Reflect = BasicBlock::Create(Ctx, "reflect", F);
  auto *Loop = BasicBlock::Create(Ctx, "recurrence", F);
  auto *Series = BasicBlock::Create(Ctx, "series", F);
  auto C = [&](double V) { return ConstantFP::get(Ty, V); };
  Value *X = F->getArg(0);

  IRBuilder<> B(Entry);
  B.CreateCondBr(B.CreateFCmpOLT(X, C(0.5)), Reflect, Loop);

  B.SetInsertPoint(Reflect);
  Value *Mirror = B.CreateCall(F, {B.CreateFSub(C(1.0), X)});
  Value *PiX = B.CreateFMul(C(numbers::pi), X);
  Value *Cot = B.CreateFDiv(C(numbers::pi), emitMathCall(B, "tan", Ty, {PiX}));
  B.CreateRet(B.CreateFSub(Mirror, Cot));

  B.SetInsertPoint(Loop);
  PHINode *Y = B.CreatePHI(Ty, 2, "y");
  PHINode *Acc = B.CreatePHI(Ty, 2, "acc");
  Y->addIncoming(X, Entry);
  Acc->addIncoming(C(0.0), Entry);
  Value *NextAcc = B.CreateFSub(Acc, B.CreateFDiv(C(1.0), Y));
  Value *NextY = B.CreateFAdd(Y, C(1.0));
  Y->addIncoming(NextY, Loop);
  Acc->addIncoming(NextAcc, Loop);
  B.CreateCondBr(B.CreateFCmpOLT(Y, C(6.0)), Loop, Series);
  // The phis leave the loop with the values of the last test.
  B.SetInsertPoint(Series);
  PHINode *YOut = B.CreatePHI(Ty, 1);
  YOut->addIncoming(Y, Loop);
  PHINode *AccOut = B.CreatePHI(Ty, 1);
  AccOut->addIncoming(Acc, Loop);
  Value *Inv = B.CreateFDiv(C(1.0), YOut);
  Value *Inv2 = B.CreateFMul(Inv, Inv);
  // Horner form of 1/12 - y⁻²/120 + y⁻⁴/252 - y⁻⁶/240 + y⁻⁸/132.
  Value *Poly = C(1.0 / 132);
  for (double Coeff : {-1.0 / 240, 1.0 / 252, -1.0 / 120, 1.0 / 12})
    Poly = B.CreateFAdd(C(Coeff), B.CreateFMul(Inv2, Poly));
  Value *Result = emitMathCall(B, "log", Ty, {YOut});
  Result = B.CreateFSub(Result, B.CreateFMul(C(0.5), Inv));
  Result = B.CreateFSub(Result, B.CreateFMul(Inv2, Poly));
  B.CreateRet(B.CreateFAdd(Result, AccOut));
  return F;
}

Value *emitDigamma(IRBuilder<> &B, ArrayRef<Value *> Operands) {
  Value *X = Operands[0];
  Module &M = *B.GetInsertBlock()->getModule();
  return B.CreateCall(getOrCreateDigamma(M, X->getType()), {X});
}

Value *emitLdexpScale(IRBuilder<> &B, ArrayRef<Value *> Operands) {
  Value *N = Operands[0];
  Type *Ty = Operands[1]->getType();
  return B.CreateIntrinsic(Intrinsic::ldexp, {Ty, N->getType()},
                           {ConstantFP::get(Ty, 1.0), N});
}

Value *emitFrexpScale(IRBuilder<> &B, ArrayRef<Value *> Operands) {
  Value *X = Operands[0];
  Type *Ty = X->getType();
  Type *I32 = B.getInt32Ty();
  Value *Parts = B.CreateIntrinsic(Intrinsic::frexp, {Ty, I32}, {X});
  Value *Exponent = B.CreateExtractValue(Parts, 1);
  Value *One = ConstantFP::get(Ty, 1.0);
  Value *Scale = B.CreateIntrinsic(Intrinsic::ldexp, {Ty, I32},
                                   {One, B.CreateNeg(Exponent)});
  // LLVM leaves the exponent of an infinity or a NaN unspecified.
  Value *NotFinite = B.CreateFCmpUEQ(B.CreateUnaryIntrinsic(Intrinsic::fabs, X),
                                     ConstantFP::getInfinity(Ty));
  return B.CreateSelect(NotFinite, One, Scale);
}

Value *emitPowExponentPartial(IRBuilder<> &B, ArrayRef<Value *> Operands) {
  Value *Power = Operands[0], *LogBase = Operands[1];
  Value *Zero = ConstantFP::get(Power->getType(), 0.0);
  return B.CreateSelect(B.CreateFCmpOEQ(Power, Zero), Zero,
                        B.CreateFMul(Power, LogBase));
}

} // namespace enzyme::rules
