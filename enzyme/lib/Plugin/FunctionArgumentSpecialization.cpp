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
//===----------------------------------------------------------------------===//

#include "Plugin/DiffRequest.h"

#include "llvm/ADT/DenseMap.h"
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

static bool specializeOnce(Module &M) {
  SmallVector<Argument *, 4> Parameters;
  for (Function &F : M) {
    if (!F.isDeclaration() || !requestModeOf(F.getName()))
      continue;
    for (User *U : F.users())
      if (auto *Call = dyn_cast<CallBase>(U))
        if (Argument *A = functionParameterOf(*Call))
          if (!is_contained(Parameters, A))
            Parameters.push_back(A);
  }

  bool Changed = false;
  for (Argument *Param : Parameters) {
    Function *Enclosing = Param->getParent();
    DenseMap<Function *, Function *> Clones;
    for (User *U : make_early_inc_range(Enclosing->users())) {
      auto *Site = dyn_cast<CallBase>(U);
      if (!Site || Site->getCalledOperand() != Enclosing)
        continue;
      auto *Known = dyn_cast_or_null<Function>(
          resolveFunctionValue(Site->getArgOperand(Param->getArgNo())));
      if (!Known)
        continue;
      Function *&Clone = Clones[Known];
      if (!Clone) {
        ValueToValueMapTy VMap;
        Clone = CloneFunction(Enclosing, VMap);
        Clone->setName(Enclosing->getName() + "." + Known->getName());
        Clone->setLinkage(GlobalValue::InternalLinkage);
        cast<Argument>(VMap[Param])->replaceAllUsesWith(Known);
      }
      Site->setCalledFunction(Clone);
      Changed = true;
    }
    // A template instance nobody calls any more goes, with its requests.
    if (Enclosing->use_empty() && Enclosing->isDiscardableIfUnused())
      Enclosing->eraseFromParent();
  }
  return Changed;
}

void specializeFunctionArguments(Module &M) {
  for (unsigned Round = 0; Round < MaxRounds && specializeOnce(M); ++Round)
    ;
}

} // namespace enzyme
