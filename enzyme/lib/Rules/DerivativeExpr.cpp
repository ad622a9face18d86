//===- DerivativeExpr.cpp - Expressions for declarative rules -------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Rules/DerivativeExpr.h"
#include "Core/DeviceMathLibrary.h"
#include "Core/GpuTarget.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme::rules {

Expr Expr::make(NodeData Data) {
  return Expr(std::make_shared<const NodeData>(std::move(Data)));
}

Expr Expr::argument(unsigned I) {
  NodeData D{Kind::Argument};
  D.Index = I;
  return make(std::move(D));
}

Expr Expr::result(unsigned Part) {
  NodeData D{Kind::Result};
  D.Index = Part;
  return make(std::move(D));
}

Expr Expr::constant(double V) {
  NodeData D{Kind::Constant};
  D.Value = V;
  return make(std::move(D));
}

Expr Expr::math(StringRef Name, std::vector<Expr> Operands) {
  NodeData D{Kind::Math};
  D.Name = Name;
  D.Operands = std::move(Operands);
  return make(std::move(D));
}

Expr Expr::compare(Kind K, Expr A, Expr B) {
  assert((K == Kind::Less || K == Kind::Greater) && "not a comparison");
  NodeData D{K};
  D.Operands = {A, B};
  return make(std::move(D));
}

Expr Expr::toFloat(Expr A) {
  NodeData D{Kind::ToFloat};
  D.Operands = {A};
  return make(std::move(D));
}

Expr Expr::hook(ExprHook Fn, std::vector<Expr> Operands) {
  NodeData D{Kind::Hook};
  D.Hook = Fn;
  D.Operands = std::move(Operands);
  return make(std::move(D));
}

Expr Expr::binary(Kind K, Expr A, Expr B) {
  NodeData D{K};
  D.Operands = {A, B};
  return make(std::move(D));
}

Expr Expr::negate(Expr A) {
  NodeData D{Kind::Neg};
  D.Operands = {A};
  return make(std::move(D));
}

/// Math functions with an LLVM intrinsic of the same meaning.
static Intrinsic::ID intrinsicFor(StringRef Name) {
  return StringSwitch<Intrinsic::ID>(Name)
      .Case("sin", Intrinsic::sin)
      .Case("cos", Intrinsic::cos)
      .Case("tan", Intrinsic::tan)
      .Case("asin", Intrinsic::asin)
      .Case("acos", Intrinsic::acos)
      .Case("atan", Intrinsic::atan)
      .Case("sinh", Intrinsic::sinh)
      .Case("cosh", Intrinsic::cosh)
      .Case("tanh", Intrinsic::tanh)
      .Case("exp", Intrinsic::exp)
      .Case("exp2", Intrinsic::exp2)
      .Case("log", Intrinsic::log)
      .Case("log2", Intrinsic::log2)
      .Case("log10", Intrinsic::log10)
      .Case("pow", Intrinsic::pow)
      .Case("sqrt", Intrinsic::sqrt)
      .Case("fabs", Intrinsic::fabs)
      .Case("copysign", Intrinsic::copysign)
      .Case("trunc", Intrinsic::trunc)
      .Default(Intrinsic::not_intrinsic);
}

/// The libm spelling of \p Name for the floating-point type \p Ty.
static std::string libmName(StringRef Name, Type *Ty) {
  if (Ty->isFloatTy())
    return (Name + "f").str();
  if (Ty->isX86_FP80Ty() || Ty->isFP128Ty())
    return (Name + "l").str();
  return Name.str();
}

Value *emitMathCall(IRBuilder<> &B, StringRef Name, Type *Ty,
                    ArrayRef<Value *> Operands) {
  Module *M = B.GetInsertBlock()->getModule();
  bool Device = isCudaModule(*M);
  Intrinsic::ID ID = intrinsicFor(Name);
  if (ID != Intrinsic::not_intrinsic &&
      (!Device || isNativeDeviceMathIntrinsic(ID)))
    return B.CreateIntrinsic(ID, {Ty}, Operands);
  if (auto *VT = dyn_cast<FixedVectorType>(Ty)) {
    // libdevice has scalar functions only.
    Value *Result = PoisonValue::get(VT);
    for (unsigned Lane = 0; Lane < VT->getNumElements(); ++Lane) {
      SmallVector<Value *, 3> Scalars;
      for (Value *Op : Operands)
        Scalars.push_back(B.CreateExtractElement(Op, Lane));
      Result = B.CreateInsertElement(
          Result, emitMathCall(B, Name, VT->getElementType(), Scalars), Lane);
    }
    return Result;
  }
  SmallVector<Type *, 3> ArgTys(Operands.size(), Ty);
  std::string Callable = libmName(Name, Ty);
  if (Device)
    Callable = deviceMathName(Callable);
  FunctionCallee Callee =
      M->getOrInsertFunction(Callable, FunctionType::get(Ty, ArgTys, false));
  if (auto *F = dyn_cast<Function>(Callee.getCallee())) {
    F->setDoesNotThrow();
    F->setOnlyAccessesInaccessibleMemory();
    F->setWillReturn();
  }
  return B.CreateCall(Callee, Operands);
}

bool evaluatesOnVectors(const Expr &E) {
  switch (E.kind()) {
  case Expr::Kind::Math:
    if (intrinsicFor(E.mathName()) == Intrinsic::not_intrinsic)
      return false;
    break;
  case Expr::Kind::Hook:
  case Expr::Kind::ToFloat:
    return false;
  default:
    break;
  }
  return all_of(E.operands(), evaluatesOnVectors);
}

bool mentionsResult(const Expr &E) {
  if (E.kind() == Expr::Kind::Result)
    return true;
  return any_of(E.operands(), mentionsResult);
}

bool mentionsArgument(const Expr &E, unsigned Index) {
  if (E.kind() == Expr::Kind::Argument)
    return E.argumentIndex() == Index;
  return any_of(E.operands(),
                [&](const Expr &Op) { return mentionsArgument(Op, Index); });
}

Value *emitExpr(const Expr &E, IRBuilder<> &B, Type *Ty, ArrayRef<Value *> Args,
                Value *Result) {
  auto Emit = [&](const Expr &Sub) {
    return emitExpr(Sub, B, Ty, Args, Result);
  };
  switch (E.kind()) {
  case Expr::Kind::Argument:
    return Args[E.argumentIndex()];
  case Expr::Kind::Result:
    // A complex result is the pair {re, im}.
    if (Result->getType()->isStructTy())
      return B.CreateExtractValue(Result, E.resultPart());
    return Result;
  case Expr::Kind::Constant:
    return ConstantFP::get(Ty, E.constant());
  case Expr::Kind::Add:
    return B.CreateFAdd(Emit(E.operands()[0]), Emit(E.operands()[1]));
  case Expr::Kind::Sub:
    return B.CreateFSub(Emit(E.operands()[0]), Emit(E.operands()[1]));
  case Expr::Kind::Mul:
    return B.CreateFMul(Emit(E.operands()[0]), Emit(E.operands()[1]));
  case Expr::Kind::Div:
    return B.CreateFDiv(Emit(E.operands()[0]), Emit(E.operands()[1]));
  case Expr::Kind::Neg:
    return B.CreateFNeg(Emit(E.operands()[0]));
  case Expr::Kind::Math: {
    SmallVector<Value *, 3> Ops;
    for (const Expr &Op : E.operands())
      Ops.push_back(Emit(Op));
    return emitMathCall(B, E.mathName(), Ty, Ops);
  }
  case Expr::Kind::Less:
  case Expr::Kind::Greater: {
    Value *L = Emit(E.operands()[0]), *R = Emit(E.operands()[1]);
    Value *Cmp = E.kind() == Expr::Kind::Less ? B.CreateFCmpOLT(L, R)
                                              : B.CreateFCmpOGT(L, R);
    // fmin/fmax return the other operand when one is NaN: that one wins.
    Cmp = B.CreateOr(Cmp, B.CreateFCmpUNO(R, R));
    return B.CreateUIToFP(Cmp, Ty);
  }
  case Expr::Kind::ToFloat:
    return B.CreateSIToFP(Emit(E.operands()[0]), Ty);
  case Expr::Kind::Hook: {
    SmallVector<Value *, 3> Ops;
    for (const Expr &Op : E.operands())
      Ops.push_back(Emit(Op));
    return E.hook()(B, Ops);
  }
  }
  llvm_unreachable("unknown expression kind");
}

} // namespace enzyme::rules
