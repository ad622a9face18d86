//===- IndirectCalls.cpp - Calls through function pointers and vtables ----===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A call through a function pointer (a C callback, a C++ virtual method,
/// `std::function`'s invoker) whose arguments or result carry derivatives
/// reaches the derivative of its target through a dispatcher: a pair of
/// small functions that compare the pointer with each possible target and
/// call that target's augmented or reverse function. The possible targets
/// are the functions of the module with the call's type whose address is
/// taken (stored, put in a vtable or passed on); a pointer to anything else
/// stops the program with a trap instead of a wrong derivative. The reverse
/// pass needs the pointer, which the plan recomputes or records like any
/// other value; shadows of function pointers are never needed, so a shadow
/// object's vtable pointer may be anything (null, in zeroed memory).
///
//===----------------------------------------------------------------------===//

#include "Modes/IndirectCalls.h"
#include "Modes/ReverseModeGenerator.h"

#include "Core/Diagnostics.h"
#include "Core/KernelLaunches.h"
#include "Core/UserRegistrations.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

/// Dispatchers are unlikely to pay off beyond this many targets, and a
/// type with that many address-taken functions usually means the engine
/// could not narrow the call down: say so instead.
static constexpr unsigned MaxIndirectTargets = 32;

/// \p F's address may reach a call through a pointer: it is used other than
/// by direct calls, as the function a `__enzyme_*` request differentiates,
/// by registrations, and by `llvm.used`. (A function passed to a request as
/// an argument value may well be called through a pointer.)
static bool mayBeCalledIndirectly(const Function &F) {
  SmallVector<const Use *, 8> Work;
  for (const Use &U : F.uses())
    Work.push_back(&U);
  SmallPtrSet<const Use *, 8> Seen;
  while (!Work.empty()) {
    const Use *U = Work.pop_back_val();
    if (!Seen.insert(U).second)
      continue;
    const User *Usr = U->getUser();
    if (const auto *Call = dyn_cast<CallBase>(Usr)) {
      if (Call->isCallee(U))
        continue;
      const auto *Callee =
          dyn_cast<Function>(Call->getCalledOperand()->stripPointerCasts());
      // The function a request differentiates: its first argument, or its
      // second after a struct-return pointer.
      unsigned FnOperand =
          Call->arg_size() > 0 && Call->paramHasAttr(0, Attribute::StructRet)
              ? 1
              : 0;
      if (Callee && Callee->isDeclaration() &&
          Callee->getName().contains("__enzyme_") && Call->isArgOperand(U) &&
          Call->getArgOperandNo(U) == FnOperand)
        continue;
      return true;
    }
    if (const auto *GV = dyn_cast<GlobalVariable>(Usr)) {
      if (GV->getName().contains("__enzyme_") ||
          GV->getName().starts_with("llvm."))
        continue;
      return true;
    }
    if (isa<ConstantExpr>(Usr) || isa<ConstantAggregate>(Usr)) {
      // Look through casts and initializers to who uses them.
      for (const Use &Next : Usr->uses())
        Work.push_back(&Next);
      continue;
    }
    return true;
  }
  return false;
}

SmallVector<Function *, 4>
possibleCallTargets(Module &M, FunctionType *FT, bool KernelLaunch,
                    const UserRegistrations *Registrations, bool Defer,
                    DifferentiationFailure &Failure) {
  SmallVector<Function *, 4> Targets;
  if (Defer) {
    Failure.Message = "an indirect call's possible targets are known only "
                      "when every module is linked";
    Failure.MissingDefinition = true;
    return Targets;
  }
  for (Function &F : M) {
    if (F.getFunctionType() != FT || F.isIntrinsic() ||
        !mayBeCalledIndirectly(F) ||
        (!KernelLaunch && kernelNameOfStub(F.getName())))
      continue;
    // A body elsewhere (a library without bitcode) is fine when the user
    // gave a derivative: either mode's, the other mode reports it clearly.
    bool Custom = Registrations && (Registrations->gradientOf(&F) ||
                                    Registrations->forwardOf(&F));
    if (F.isDeclaration() && !Custom && !F.hasFnAttribute("enzyme_inactive"))
      continue;
    Targets.push_back(&F);
  }
  if (Targets.empty()) {
    Failure.Message = "cannot differentiate an indirect call whose arguments "
                      "or result carry derivatives: no function of its type "
                      "whose address is taken has a body or a custom "
                      "gradient in the program; the functions it calls must "
                      "be compiled with -fenzyme";
  } else if (Targets.size() > MaxIndirectTargets) {
    Failure.Message =
        "cannot differentiate an indirect call with " +
        std::to_string(Targets.size()) + " possible targets (at most " +
        std::to_string(MaxIndirectTargets) + "); call the function directly";
    Targets.clear();
  }
  return Targets;
}

void blameTarget(DifferentiationFailure &Failure, const Function &Target,
                 StringRef Remedy) {
  Failure.Message = "cannot differentiate an indirect call: its possible "
                    "target '" +
                    displayName(Target.getName()) +
                    "' cannot be differentiated (" + Failure.Message + "); " +
                    Remedy.str();
}
Function *createDispatcher(Module &M, ArrayRef<Function *> Targets,
                           ArrayRef<Function *> Derivatives,
                           const Twine &Name) {
  LLVMContext &Ctx = M.getContext();
  FunctionType *DerivativeTy = Derivatives.front()->getFunctionType();
  SmallVector<Type *, 8> Params = {PointerType::getUnqual(Ctx)};
  Params.append(DerivativeTy->param_begin(), DerivativeTy->param_end());
  auto *F = Function::Create(
      FunctionType::get(DerivativeTy->getReturnType(), Params, false),
      GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoUnwind);
  SmallVector<Value *, 8> Args;
  for (Argument &A : drop_begin(F->args()))
    Args.push_back(&A);

  BasicBlock *Next = BasicBlock::Create(Ctx, "entry", F);
  for (auto [Target, Derivative] : zip(Targets, Derivatives)) {
    IRBuilder<> B(Next);
    auto *Call = BasicBlock::Create(Ctx, "call." + Target->getName(), F);
    Next = BasicBlock::Create(Ctx, "next", F);
    B.CreateCondBr(B.CreateICmpEQ(F->getArg(0), Target), Call, Next);
    B.SetInsertPoint(Call);
    CallInst *Result = B.CreateCall(Derivative, Args);
    if (Result->getType()->isVoidTy())
      B.CreateRetVoid();
    else
      B.CreateRet(Result);
  }
  // A pointer to a function the engine did not differentiate.
  IRBuilder<> B(Next);
  B.CreateIntrinsic(Intrinsic::trap, {}, {});
  B.CreateUnreachable();
  return F;
}

const ReversePair *ReverseModeGenerator::generateDispatch(
    const ReverseSignature &Shape, const CallBase &Call,
    DifferentiationFailure &Failure, uint64_t *FixedBytes) {
  FunctionType *FT = Call.getFunctionType();
  SmallVector<Function *, 4> Targets =
      possibleCallTargets(M, FT, isConfiguredCallThroughPointer(Call),
                          Registrations, DeferIndirectCalls, Failure);
  if (Targets.empty())
    return nullptr;
  DispatchKey Key{FT, Shape, {Targets.begin(), Targets.end()}};
  Key.Shape.Fn = nullptr;
  if (auto It = Dispatchers.find(Key); It != Dispatchers.end()) {
    if (FixedBytes)
      *FixedBytes = It->second.second;
    return &It->second.first;
  }

  SmallVector<Function *, 4> Augmented, Reverse;
  uint64_t MaxBytes = 0;
  for (Function *Target : Targets) {
    ReverseSignature Sig = Shape;
    Sig.Fn = Target;
    const ReversePair *Pair = generate(Sig, Failure);
    if (!Pair) {
      blameTarget(Failure, *Target,
                  "give it a custom gradient or mark it inactive");
      return nullptr;
    }
    if (Shape.FixedTape) {
      std::optional<uint64_t> Bytes = fixedTapeBytes(Sig);
      if (!Bytes) {
        Failure.Message = "an inline tape ('enzyme_allocated') has a size "
                          "fixed at compile time, but this indirect call may "
                          "recurse; leave the marker out to get the tape as "
                          "a pointer";
        return nullptr;
      }
      MaxBytes = std::max(MaxBytes, *Bytes);
    }
    Augmented.push_back(Pair->Augmented);
    Reverse.push_back(Pair->Reverse);
  }
  // A target that calls through a pointer of this type again (recursion
  // through the pointer) has built the dispatchers meanwhile: reuse them
  // rather than leave a second, unused pair behind.
  if (auto It = Dispatchers.find(Key); It != Dispatchers.end()) {
    if (FixedBytes)
      *FixedBytes = It->second.second;
    return &It->second.first;
  }
  ReversePair Pair;
  Pair.Augmented =
      createDispatcher(M, Targets, Augmented, "enzyme.indirect.aug");
  Pair.Reverse = createDispatcher(M, Targets, Reverse, "enzyme.indirect.rev");
  // Removed with the request if it fails. (Dispatchers take no shadows of
  // their own, so the cleanup of generated pairs does not apply.)
  PendingDispatchKeys.push_back(Key);
  PendingHelpers.push_back(Pair.Augmented);
  PendingHelpers.push_back(Pair.Reverse);
  auto [It, Inserted] = Dispatchers.try_emplace(Key, Pair, MaxBytes);
  if (FixedBytes)
    *FixedBytes = MaxBytes;
  return &It->second.first;
}

} // namespace enzyme
