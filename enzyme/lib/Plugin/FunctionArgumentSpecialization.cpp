//===- FunctionArgumentSpecialization.cpp - Constant function arguments ---===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A helper such as `template <class F> double grad(F f, double x) {
/// return __enzyme_autodiff(f, x); }` passes the function to differentiate
/// as a parameter. After inlining (-O1 and up) it is a constant; at -O0 it
/// is not. This step clones the enclosing function for each call site that
/// passes a known function, with the parameter replaced by that function,
/// so the request inside names it directly. Callers are handled first when
/// they themselves pass a parameter on, up to a small depth.
///
/// Launches through the CUDA runtime API in differentiated host code get
/// the same treatment: Thrust and CUB pass the kernel (its host stub) down
/// to a helper that calls `cudaLaunchKernelExC`, and the derivative of a
/// launch must know which kernel it launches.
///
//===----------------------------------------------------------------------===//

#include "Plugin/DiffRequest.h"
#include "Plugin/LaunchDerivatives.h"

#include "Core/KernelLaunches.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace enzyme {

/// Rounds of specialisation: one per level of helpers passing the function
/// on to the next.
static constexpr unsigned MaxRounds = 4;

/// The parameter of its enclosing function that a request's function
/// argument comes from, if any.
static Argument *functionParameterOf(CallBase &Request) {
  unsigned FnOperand =
      Request.arg_size() > 0 && Request.paramHasAttr(0, Attribute::StructRet)
          ? 1
          : 0;
  if (FnOperand >= Request.arg_size())
    return nullptr;
  return dyn_cast_or_null<Argument>(
      resolveFunctionValue(Request.getArgOperand(FnOperand)));
}

/// The actual argument a direct call passes for \p Param, if the call
/// matches the callee's signature.
static Value *actualArgument(CallBase &Site, Argument *Param) {
  Function *Callee = Param->getParent();
  if (Site.getCalledOperand() != Callee ||
      Site.getFunctionType() != Callee->getFunctionType() ||
      Param->getArgNo() >= Site.arg_size())
    return nullptr;
  return Site.getArgOperand(Param->getArgNo());
}

/// In \p Clone, loads of a local that holds \p Known and nothing else
/// (unoptimised code keeps parameters in locals) become \p Known, so that
/// the launches and requests that read it name it.
static void forwardStoresOf(Function &Clone, Function &Known) {
  for (User *U : make_early_inc_range(Known.users())) {
    auto *Store = dyn_cast<StoreInst>(U);
    auto *Local = Store && Store->getFunction() == &Clone &&
                          Store->getValueOperand() == &Known
                      ? dyn_cast<AllocaInst>(Store->getPointerOperand())
                      : nullptr;
    if (!Local || !all_of(Local->users(), [&](const User *LU) {
          return LU == Store || isa<LoadInst>(LU);
        }))
      continue;
    for (User *LU : make_early_inc_range(Local->users()))
      if (auto *Load = dyn_cast<LoadInst>(LU);
          Load && Load->getType() == Known.getType())
        Load->replaceAllUsesWith(&Known);
  }
}

static bool specializeOnce(Module &M) {
  // The parameters that requests take their function from, and, upwards,
  // the parameters of callers that pass theirs on.
  SetVector<Argument *> Parameters;
  bool AnyLaunch = false;
  for (Function &F : M) {
    if (!F.isDeclaration())
      continue;
    if (requestModeOf(F.getName())) {
      for (User *U : F.users())
        if (auto *Call = dyn_cast<CallBase>(U))
          if (Argument *A = functionParameterOf(*Call))
            Parameters.insert(A);
    }
    AnyLaunch |= isRuntimeLaunch(F.getName());
  }
  // Kernels that differentiated host code launches through a parameter.
  if (AnyLaunch)
    for (Function *F : functionsRequestsReach(M))
      for (Instruction &I : instructions(*F))
        if (auto *Call = dyn_cast<CallBase>(&I)) {
          if (Value *Kernel = launchedKernel(*Call)) {
            if (auto *A =
                    dyn_cast_or_null<Argument>(resolveFunctionValue(Kernel)))
              Parameters.insert(A);
          } else if (isConfiguredCallThroughPointer(*Call)) {
            // `K<<<...>>>(...)` with the kernel's stub a parameter (Thrust's
            // triple_chevron takes it as one).
            if (auto *A = dyn_cast_or_null<Argument>(
                    resolveFunctionValue(Call->getCalledOperand())))
              Parameters.insert(A);
          }
        }
  for (unsigned I = 0; I < Parameters.size(); ++I) {
    Argument *Param = Parameters[I];
    for (User *U : Param->getParent()->users())
      if (auto *Site = dyn_cast<CallBase>(U))
        if (Value *Actual = actualArgument(*Site, Param))
          if (auto *Outer =
                  dyn_cast_or_null<Argument>(resolveFunctionValue(Actual)))
            Parameters.insert(Outer);
  }

  bool Changed = false;
  SetVector<Function *> Specialized;
  for (Argument *Param : Parameters) {
    Function *Enclosing = Param->getParent();
    DenseMap<Function *, Function *> Clones;
    for (User *U : make_early_inc_range(Enclosing->users())) {
      auto *Site = dyn_cast<CallBase>(U);
      Value *Actual = Site ? actualArgument(*Site, Param) : nullptr;
      auto *Known =
          Actual ? dyn_cast_or_null<Function>(resolveFunctionValue(Actual))
                 : nullptr;
      if (!Known)
        continue;
      Function *&Clone = Clones[Known];
      if (!Clone) {
        ValueToValueMapTy VMap;
        Clone = CloneFunction(Enclosing, VMap);
        Clone->setName(copyNameFor(Enclosing->getName(), "", Known->getName()));
        Clone->setLinkage(GlobalValue::InternalLinkage);
        cast<Argument>(VMap[Param])->replaceAllUsesWith(Known);
        forwardStoresOf(*Clone, *Known);
      }
      Site->setCalledFunction(Clone);
      Changed = true;
    }
    Specialized.insert(Enclosing);
  }
  // A template instance nobody calls any more goes, with its requests.
  // Erased last: several parameters may belong to one function.
  for (Function *F : Specialized)
    if (F->use_empty() && F->isDiscardableIfUnused())
      F->eraseFromParent();
  return Changed;
}

void specializeFunctionArguments(Module &M) {
  for (unsigned Round = 0; Round < MaxRounds && specializeOnce(M); ++Round)
    ;
}

} // namespace enzyme
