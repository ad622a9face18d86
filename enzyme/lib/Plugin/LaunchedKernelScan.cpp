//===- LaunchedKernelScan.cpp - Kernels launched from requests ------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Scan mode (Core/KernelLaunches.h): before a CUDA file is compiled, the
/// driver compiles its host side at -O0 and this scan lists the kernels
/// whose derivative kernels the device compilation must define: those
/// whose host stubs the requests reach through direct calls, in reverse
/// mode (derivative kernels) or forward mode (tangent kernels). The walk
/// stops where the engine would not look inside: at functions with a
/// custom derivative for the mode or marked inactive. It also starts at the
/// functions that `__enzyme_differentiable_launcher_NAME` registrations
/// name: host code that a request in another file differentiates.
///
//===----------------------------------------------------------------------===//

#include "Plugin/LaunchDerivatives.h"

#include "Core/KernelLaunches.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace llvm;

namespace enzyme {

/// The entry points of \p Family's requests, whose first argument is
/// differentiated.
static bool isEntryOf(StringRef Name, RequestFamily Family) {
  if (Family == RequestFamily::Forward)
    return Name.contains("__enzyme_fwddiff");
  return Name.contains("__enzyme_autodiff") ||
         Name.contains("__enzyme_augmentfwd") ||
         Name.contains("__enzyme_reverse");
}

SmallPtrSet<const Function *, 8> registeredFunctions(Module &M,
                                                     RequestFamily Family) {
  StringRef Custom = Family == RequestFamily::Forward
                         ? "__enzyme_register_derivative"
                         : "__enzyme_register_gradient";
  SmallPtrSet<const Function *, 8> Registered;
  for (GlobalVariable &GV : M.globals()) {
    StringRef Name = GV.getName();
    if (!GV.hasInitializer() ||
        (!Name.contains(Custom) && !Name.contains("__enzyme_inactivefn")))
      continue;
    const Constant *Init = GV.getInitializer();
    if (auto *F = dyn_cast<Function>(Init->stripPointerCasts()))
      Registered.insert(F);
    for (const Use &U : Init->operands())
      if (auto *F = dyn_cast<Function>(U.get()->stripPointerCasts()))
        Registered.insert(F);
  }
  return Registered;
}

/// The functions that `__enzyme_differentiable_launcher_NAME`
/// registrations name: host code a request in another file differentiates.
static SmallVector<Function *, 4> registeredLaunchers(Module &M) {
  SmallVector<Function *, 4> Launchers;
  for (GlobalVariable &GV : M.globals())
    if (GV.getName().contains("__enzyme_differentiable_launcher") &&
        GV.hasInitializer())
      if (const Constant *Init = GV.getInitializer()->stripPointerCasts()) {
        if (isa<ConstantArray>(Init) && Init->getNumOperands())
          Init = cast<Constant>(Init->getOperand(0))->stripPointerCasts();
        if (auto *F = dyn_cast<Function>(Init))
          Launchers.push_back(const_cast<Function *>(F));
      }
  return Launchers;
}

/// The bodies reached from \p Starts through direct calls (and function
/// pointers passed to calls), up to the opaque functions of \p Family.
static SetVector<Function *> bodiesReachedFrom(Module &M,
                                               ArrayRef<Function *> Starts,
                                               RequestFamily Family) {
  SmallPtrSet<const Function *, 8> Opaque = registeredFunctions(M, Family);
  SetVector<Function *> Reached(Starts.begin(), Starts.end()), Bodies;
  for (unsigned I = 0; I < Reached.size(); ++I) {
    Function *F = Reached[I];
    if (F->isDeclaration() || Opaque.count(F) ||
        F->hasFnAttribute("enzyme_inactive") || kernelNameOfStub(F->getName()))
      continue;
    Bodies.insert(F);
    for (Instruction &Inst : instructions(*F))
      if (auto *Call = dyn_cast<CallBase>(&Inst))
        for (Value *Operand : Call->operands())
          if (auto *Callee = dyn_cast<Function>(Operand->stripPointerCasts());
              Callee && !Callee->isIntrinsic())
            Reached.insert(Callee);
  }
  return Bodies;
}

/// The functions \p Family's requests of \p M differentiate first.
static SmallVector<Function *, 4> requestedFunctions(Module &M,
                                                     RequestFamily Family) {
  SmallVector<Function *, 4> Requested;
  for (Function &Entry : M) {
    if (!Entry.isDeclaration() || !isEntryOf(Entry.getName(), Family))
      continue;
    for (User *U : Entry.users())
      if (auto *Call = dyn_cast<CallBase>(U);
          Call && Call->getCalledOperand() == &Entry && Call->arg_size()) {
        // A request that returns a struct of gradients in memory takes
        // the memory first (sret).
        unsigned Function = Call->paramHasAttr(0, Attribute::StructRet);
        if (Function >= Call->arg_size())
          continue;
        if (auto *F = dyn_cast<llvm::Function>(
                Call->getArgOperand(Function)->stripPointerCasts()))
          Requested.push_back(F);
      }
  }
  return Requested;
}

SetVector<Function *> functionsRequestsReach(Module &M, RequestFamily Family) {
  SmallVector<Function *, 8> Starts = registeredLaunchers(M);
  Starts.append(requestedFunctions(M, Family));
  return bodiesReachedFrom(M, Starts, Family);
}

SetVector<Function *> functionsRequestsReach(Module &M) {
  SetVector<Function *> Reached =
      functionsRequestsReach(M, RequestFamily::Reverse);
  SetVector<Function *> Forward =
      functionsRequestsReach(M, RequestFamily::Forward);
  Reached.insert(Forward.begin(), Forward.end());
  return Reached;
}

/// The kernels whose host stubs \p Bodies launch, but for those with a
/// custom derivative of \p Family. A stub that a body calls, passes on,
/// stores or returns counts: Thrust and CUB hand their kernels' stubs
/// through several functions (at -O0 a function returns the kernel) before
/// one launches them through the runtime API.
static std::set<std::string> kernelsLaunchedBy(Module &M,
                                               ArrayRef<Function *> Bodies,
                                               RequestFamily Family) {
  SmallPtrSet<const Function *, 8> Opaque = registeredFunctions(M, Family);
  std::set<std::string> Kernels;
  for (Function *F : Bodies)
    for (Instruction &Inst : instructions(*F))
      for (Value *Operand : Inst.operands())
        if (auto *Stub = dyn_cast<Function>(Operand->stripPointerCasts());
            Stub && !Opaque.count(Stub))
          if (std::optional<std::string> Kernel =
                  kernelNameOfStub(Stub->getName()))
            Kernels.insert(*Kernel);
  return Kernels;
}

void listLaunchedKernels(Module &M) {
  std::error_code EC;
  raw_fd_ostream Out(launchedKernelListPath(), EC);
  if (EC) {
    errs() << "enzyme: cannot write '" << launchedKernelListPath()
           << "': " << EC.message() << "\n";
    return;
  }
  // One kernel per line; those of forward-mode requests marked so. A
  // launcher registration asks for reverse mode, where launches were first
  // differentiated, and for forward mode only where the kernel allows it
  // (`forward-if-possible`): a kernel that forward mode cannot
  // differentiate keeps building for reverse mode.
  for (const std::string &Kernel : kernelsLaunchedBy(
           M, functionsRequestsReach(M, RequestFamily::Reverse).getArrayRef(),
           RequestFamily::Reverse))
    Out << Kernel << "\n";
  auto ForwardFrom = [&](ArrayRef<Function *> Starts) {
    return kernelsLaunchedBy(
        M, bodiesReachedFrom(M, Starts, RequestFamily::Forward).getArrayRef(),
        RequestFamily::Forward);
  };
  std::set<std::string> Requested =
      ForwardFrom(requestedFunctions(M, RequestFamily::Forward));
  for (const std::string &Kernel : Requested)
    Out << "forward " << Kernel << "\n";
  for (const std::string &Kernel : ForwardFrom(registeredLaunchers(M)))
    if (!Requested.count(Kernel))
      Out << "forward-if-possible " << Kernel << "\n";
  // With relocatable device code (the driver decides), host code in other
  // files may launch the kernels whose stubs other files can call. Those
  // of templates (linkonce) are defined in each file that launches them.
  for (Function &F : M)
    if (std::optional<std::string> Kernel = kernelNameOfStub(F.getName());
        Kernel && !F.isDeclaration() && !F.hasLocalLinkage() &&
        !F.hasLinkOnceLinkage())
      Out << "external " << *Kernel << "\n";
}

} // namespace enzyme
