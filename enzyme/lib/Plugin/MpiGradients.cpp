//===- MpiGradients.cpp - Custom gradients of MPI calls -------------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Plugin/MpiGradients.h"

#include "Core/MpiRuntime.h"
#include "Core/RuntimeLibrary.h"
#include "Plugin/LaunchDerivatives.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

void prepareMpiCalls(Module &M, ArrayRef<Function *> Reached) {
  if (!haveMpiRules() || !canLinkRuntime(M))
    return;
  if (Reached.empty())
    return;
  // Every MPI function the module declares: requests resolved later (a
  // function pointer that a specialisation makes known) reach more code
  // than Reached holds.
  SetVector<Function *> Called;
  for (Function &F : M)
    if (F.isDeclaration() && !mpiGradientPrefix(F.getName()).empty() &&
        !F.use_empty())
      Called.insert(&F);
  if (Called.empty())
    return;
  // A user's own gradient or inactive mark is kept as written.
  SmallPtrSet<const Function *, 8> Registered = registeredFunctions(M);
  PointerType *Ptr = PointerType::getUnqual(M.getContext());
  auto *RegistrationTy = ArrayType::get(Ptr, 3);
  for (Function *F : Called) {
    std::string Name = ("__enzyme_register_gradient_" + F->getName()).str();
    if (Registered.count(F) || M.getNamedGlobal(Name))
      continue;
    // A wait completes requests whose adjoint messages its reverse starts,
    // whatever its own arguments carry.
    if (F->getName() == "MPI_Wait" || F->getName() == "MPI_Waitall")
      F->addFnAttr(CarriesHiddenDerivatives);
    StringRef Prefix = mpiGradientPrefix(F->getName());
    Function *Augment = getRuntimeFunction(M, (Prefix + "_augment").str());
    Function *Reverse = getRuntimeFunction(M, (Prefix + "_reverse").str());
    new GlobalVariable(
        M, RegistrationTy, /*isConstant=*/false, GlobalValue::InternalLinkage,
        ConstantArray::get(RegistrationTy, {F, Augment, Reverse}), Name);
  }
}

} // namespace enzyme
