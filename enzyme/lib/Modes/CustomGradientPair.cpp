//===- CustomGradientPair.cpp - A pair around a user's gradient -----------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/CustomGradientPair.h"

#include "Core/Diagnostics.h"
#include "Core/Tape.h"
#include "Core/UserRegistrations.h"
#include "Modes/ReverseModeGenerator.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

/// The user's leading arguments: each of the function's parameters, a
/// pointer followed by its shadow. A pointer that carries no derivative at
/// this call has no shadow; the user's functions get null for it.
static SmallVector<Value *, 8> userArguments(const ReverseSignature &Sig,
                                             Function &Generated) {
  Function &F = *Sig.Fn;
  SmallVector<Value *, 8> Args;
  unsigned NextShadow = F.arg_size();
  for (Argument &A : F.args()) {
    Args.push_back(Generated.getArg(A.getArgNo()));
    if (!A.getType()->isPointerTy())
      continue;
    Args.push_back(hasShadow(Sig.Args[A.getArgNo()])
                       ? static_cast<Value *>(Generated.getArg(NextShadow++))
                       : Constant::getNullValue(A.getType()));
  }
  return Args;
}

static void copyCallAttributes(const Function &Callee, CallInst &Call) {
  Call.setCallingConv(Callee.getCallingConv());
  // ABI attributes (sret, byval, signext...) must match the declaration.
  Call.setAttributes(Callee.getAttributes());
}

static void buildAugmented(const ReverseSignature &Sig, const CustomGradient &G,
                           Function &Aug, const TapeBuilder &Tape) {
  IRBuilder<> B(BasicBlock::Create(Aug.getContext(), "entry", &Aug));
  CallInst *Result = B.CreateCall(G.Augment, userArguments(Sig, Aug));
  copyCallAttributes(*G.Augment, *Result);
  Value *Primal = nullptr;
  if (G.TapeType) {
    Value *UserTape =
        G.ReturnsPrimal ? B.CreateExtractValue(Result, 0) : Result;
    Value *EngineTape = Aug.getArg(Aug.arg_size() - 1);
    if (Sig.FixedTape)
      Tape.store(B, EngineTape, 0, {UserTape});
    else
      Tape.push(B, EngineTape, {UserTape});
    if (G.ReturnsPrimal)
      Primal = B.CreateExtractValue(Result, 1);
  } else if (G.ReturnsPrimal) {
    Primal = Result;
  }
  if (Aug.getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Primal);
}

static void buildReverse(const ReverseSignature &Sig, const CustomGradient &G,
                         Function &Rev, const TapeBuilder &Tape) {
  Function &F = *Sig.Fn;
  LLVMContext &Ctx = Rev.getContext();
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", &Rev));
  SmallVector<Value *, 8> Args = userArguments(Sig, Rev);
  unsigned Next = F.arg_size() + count_if(Sig.Args, hasShadow);
  Type *RetTy = F.getReturnType();
  if (RetTy->isFPOrFPVectorTy())
    Args.push_back(Sig.ReturnActive ? static_cast<Value *>(Rev.getArg(Next++))
                                    : Constant::getNullValue(RetTy));
  if (G.TapeType) {
    Value *EngineTape = Rev.getArg(Rev.arg_size() - 1);
    Args.push_back(Sig.FixedTape
                       ? Tape.load(B, EngineTape, 0, {G.TapeType}).front()
                       : Tape.pop(B, EngineTape, {G.TapeType}).front());
  }

  AllocaInst *Out = nullptr;
  if (G.GradientsThroughMemory) {
    IRBuilder<> Entry(&Rev.getEntryBlock(), Rev.getEntryBlock().begin());
    Out = Entry.CreateAlloca(G.Reverse->getParamStructRetType(0));
    Args.insert(Args.begin(), Out);
  }
  CallInst *Call = B.CreateCall(G.Reverse, Args);
  copyCallAttributes(*G.Reverse, *Call);
  Value *Returned = Out ? B.CreateLoad(Out->getAllocatedType(), Out)
                        : static_cast<Value *>(Call);

  // The user returns one gradient per float parameter; the call site wants
  // those of its enzyme_out arguments.
  SmallVector<Value *, 4> Gradients;
  unsigned Field = 0, Count = 0;
  for (Argument &A : F.args())
    Count += A.getType()->isFPOrFPVectorTy();
  for (Argument &A : F.args()) {
    if (!A.getType()->isFPOrFPVectorTy())
      continue;
    unsigned Index = Field++;
    if (Sig.Args[A.getArgNo()] != Activity::Out)
      continue;
    if (Count == 1)
      Gradients.push_back(Returned);
    else if (Returned->getType()->isVectorTy())
      Gradients.push_back(B.CreateExtractElement(Returned, Index));
    else
      Gradients.push_back(B.CreateExtractValue(Returned, Index));
  }
  if (Rev.getReturnType()->isVoidTy()) {
    B.CreateRetVoid();
    return;
  }
  Value *Result = PoisonValue::get(Rev.getReturnType());
  for (auto [I, V] : enumerate(Gradients))
    Result = B.CreateInsertValue(Result, V, I);
  B.CreateRet(Result);
}

bool buildCustomGradientPair(const ReverseSignature &Sig,
                             const CustomGradient &G, const ReversePair &Pair,
                             const TapeBuilder &Tape,
                             DifferentiationFailure &Failure) {
  Function &F = *Sig.Fn;
  if (Sig.ReturnShadow) {
    Failure.Message = "the custom gradient of '" + displayName(F.getName()) +
                      "' cannot give the shadow of the pointer it returns, "
                      "which this call needs";
    return false;
  }
  if (!G.ReturnsPrimal && !F.getReturnType()->isVoidTy()) {
    Failure.Message = "the custom augmented function of '" +
                      displayName(F.getName()) +
                      "' must return the primal result";
    return false;
  }
  buildAugmented(Sig, G, *Pair.Augmented, Tape);
  buildReverse(Sig, G, *Pair.Reverse, Tape);
  return true;
}

} // namespace enzyme
