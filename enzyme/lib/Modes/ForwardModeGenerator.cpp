//===- ForwardModeGenerator.cpp - Tangent functions -----------------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/ForwardModeGenerator.h"
#include "Core/UserRegistrations.h"
#include "Modes/IndirectCalls.h"

#include "Core/Diagnostics.h"
#include "Core/KernelLaunches.h"
#include "Core/OpenMPRuntime.h"
#include "Core/RuntimeLibrary.h"
#include "Modes/ChoiceSplitting.h"
#include "Modes/PreparedFunction.h"
#include "Modes/TangentBuilder.h"
#include "Modes/UnshadowedReturns.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

ForwardModeGenerator::ForwardModeGenerator(
    Module &M, FunctionAnalysisManager &FAM, FunctionPassManager *Cleanup,
    const UserRegistrations *Registrations)
    : M(M), FAM(FAM), Cleanup(Cleanup), Registrations(Registrations) {
  if (!canLinkRuntime(M))
    UnshadowedReturnsOracle = std::make_unique<UnshadowedReturns>(
        FAM, [this](Function &F) { return prepare(F); });
}

Function *ForwardModeGenerator::prepare(Function &F) {
  auto Targets = [&](FunctionType *FT) {
    DifferentiationFailure Ignored;
    return possibleCallTargets(M, FT, /*KernelLaunch=*/false, Registrations,
                               DeferIndirectCalls, Ignored);
  };
  return prepareForDifferentiation(F, FAM, Targets);
}

ForwardModeGenerator::~ForwardModeGenerator() = default;

FunctionType *
ForwardModeGenerator::getTangentType(const ForwardSignature &Sig) const {
  FunctionType *FT = Sig.Fn->getFunctionType();
  SmallVector<Type *, 8> Params(FT->params());
  for (unsigned A = 0; A < FT->getNumParams(); ++A)
    if (hasShadow(Sig.Args[A]))
      Params.push_back(shadowType(FT->getParamType(A), Sig.Width));
  Type *Ret = FT->getReturnType();
  if (Sig.ReturnTangent)
    Ret = StructType::get(M.getContext(), {Ret, shadowType(Ret, Sig.Width)});
  return FunctionType::get(Ret, Params, false);
}

void ForwardModeGenerator::cleanup(Function &F, const ForwardSignature &Sig) {
  finishGeneratedFunction(F, *Sig.Fn, Sig.Args, FAM, Cleanup);
}

Function *ForwardModeGenerator::generate(const ForwardSignature &Sig,
                                         DifferentiationFailure &Failure) {
  auto It = Tangents.find(Sig);
  if (It != Tangents.end())
    return It->second;
  Function &F = *Sig.Fn;
  if (const CustomForward *Custom =
          Registrations ? Registrations->forwardOf(&F) : nullptr)
    return generateCustom(Sig, *Custom, Failure);
  if (isParallelRegion(F))
    return generateParallelRegion(Sig, Failure);
  if (Function *Body = inactiveDeclarationBody(F)) {
    ForwardSignature Inner = Sig;
    Inner.Fn = Body;
    return generate(Inner, Failure);
  }
  if (!checkPreparable(F, Failure))
    return nullptr;

  // Registered before its body is built, so recursive calls find it.
  Function *Tangent =
      Function::Create(getTangentType(Sig), GlobalValue::InternalLinkage,
                       F.getName() + ".fwd", M);
  copyCodegenAttributes(F, *Tangent);
  Tangents[Sig] = Tangent;
  Pending.push_back(Sig);

  Function *Prepared = prepare(F);
  if (splitReadsThroughMixedChoices(
          *Prepared, analysisActivities(Sig),
          Sig.ReturnTangent && carriesPointers(Prepared->getReturnType()),
          Sig.ContextShadows))
    FAM.invalidate(*Prepared, PreservedAnalyses::none());
  bool Ok;
  {
    auto SigIt = Tangents.find(Sig);
    TangentBuilder Builder(*this, SigIt->first, *Prepared, *Tangent);
    Ok = Builder.run(Failure);
  }
  discardFunction(Prepared, FAM);
  return Ok ? Tangent : nullptr;
}

Function *
ForwardModeGenerator::generateDispatch(const ForwardSignature &Shape,
                                       const CallBase &Call,
                                       DifferentiationFailure &Failure) {
  FunctionType *FT = Call.getFunctionType();
  SmallVector<Function *, 4> Targets =
      possibleCallTargets(M, FT, isConfiguredCallThroughPointer(Call),
                          Registrations, DeferIndirectCalls, Failure);
  if (Targets.empty())
    return nullptr;
  DispatchKey Key{FT, Shape, {Targets.begin(), Targets.end()}};
  Key.Shape.Fn = nullptr;
  if (auto It = Dispatchers.find(Key); It != Dispatchers.end())
    return It->second;
  SmallVector<Function *, 4> Derivatives;
  for (Function *Target : Targets) {
    ForwardSignature Sig = Shape;
    Sig.Fn = Target;
    Function *Tangent = generate(Sig, Failure);
    if (!Tangent) {
      blameTarget(Failure, *Target,
                  "mark it inactive if it carries no derivative");
      return nullptr;
    }
    Derivatives.push_back(Tangent);
  }
  // A target that calls through a pointer of this type again (recursion
  // through the pointer) has built the dispatcher meanwhile: reuse it, so
  // that each key has one dispatcher, registered once for rollback.
  if (auto It = Dispatchers.find(Key); It != Dispatchers.end())
    return It->second;
  Function *Dispatcher =
      createDispatcher(M, Targets, Derivatives, "enzyme.indirect.fwd");
  Dispatchers[Key] = Dispatcher;
  PendingDispatchKeys.push_back(Key);
  return Dispatcher;
}

Function *
ForwardModeGenerator::generateCustom(const ForwardSignature &Sig,
                                     const CustomForward &Custom,
                                     DifferentiationFailure &Failure) {
  Function &F = *Sig.Fn;
  if (Sig.Width != 1) {
    Failure.Message = "'" + displayName(F.getName()) +
                      "' has a custom forward derivative, which computes one "
                      "direction; vector mode (enzyme_width " +
                      std::to_string(Sig.Width) +
                      ") cannot use it, compute the directions one at a time";
    return nullptr;
  }
  LLVMContext &Ctx = M.getContext();
  Function *Tangent =
      Function::Create(getTangentType(Sig), GlobalValue::InternalLinkage,
                       F.getName() + ".custom.fwd", M);
  copyCodegenAttributes(F, *Tangent);
  Tangents[Sig] = Tangent;
  Pending.push_back(Sig);

  // The user's arguments: every float and pointer with its tangent; one
  // that carries none at this call gets a zero tangent (a null shadow).
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Tangent));
  SmallVector<Value *, 8> Primals, Args;
  unsigned NextTangent = F.arg_size();
  for (Argument &A : F.args()) {
    Value *P = Tangent->getArg(A.getArgNo());
    Primals.push_back(P);
    Args.push_back(P);
    bool Duplicated = hasShadow(Sig.Args[A.getArgNo()]);
    Value *T = Duplicated ? static_cast<Value *>(Tangent->getArg(NextTangent++))
                          : nullptr;
    if (A.getType()->isFPOrFPVectorTy() || A.getType()->isPointerTy())
      Args.push_back(T ? T : Constant::getNullValue(A.getType()));
  }
  CallInst *Result = B.CreateCall(Custom.Forward, Args);
  Result->setCallingConv(Custom.Forward->getCallingConv());
  Result->setAttributes(Custom.Forward->getAttributes());
  Value *Primal = nullptr, *ResultTangent = nullptr;
  if (Custom.ReturnsPrimal) {
    Primal = B.CreateExtractValue(Result, 0);
    ResultTangent = B.CreateExtractValue(Result, 1);
  } else if (!F.getReturnType()->isVoidTy()) {
    // The user gives the tangent alone: the result comes from the function.
    CallInst *Call = B.CreateCall(&F, Primals);
    Call->setCallingConv(F.getCallingConv());
    Primal = Call;
    ResultTangent = Result;
  }
  Type *RetTy = Tangent->getReturnType();
  if (RetTy->isVoidTy()) {
    B.CreateRetVoid();
  } else if (Sig.ReturnTangent) {
    Value *Pair = PoisonValue::get(RetTy);
    Pair = B.CreateInsertValue(Pair, Primal, 0);
    Pair = B.CreateInsertValue(Pair, ResultTangent, 1);
    B.CreateRet(Pair);
  } else {
    B.CreateRet(Primal);
  }
  return Tangent;
}

Function *ForwardModeGenerator::getOrCreate(const ForwardSignature &Sig,
                                            DifferentiationFailure &Failure) {
  Pending.clear();
  PendingDispatchKeys.clear();
  Function *Tangent = generate(Sig, Failure);
  std::vector<Function *> Generated;
  for (const ForwardSignature &S : Pending)
    Generated.push_back(Tangents[S]);
  if (!Tangent) {
    // Nothing of a failed request stays in the module.
    for (const ForwardSignature &S : Pending)
      Tangents.erase(S);
    for (const DispatchKey &K : PendingDispatchKeys) {
      Generated.push_back(Dispatchers[K]);
      Dispatchers.erase(K);
    }
    for (Function *F : Generated)
      F->dropAllReferences();
    for (Function *F : Generated) {
      FAM.clear(*F, F->getName());
      F->eraseFromParent();
    }
  } else {
    for (size_t I = 0; I < Pending.size(); ++I)
      cleanup(*Generated[I], Pending[I]);
  }
  Pending.clear();
  return Tangent;
}

} // namespace enzyme
