//===- LibraryGradients.cpp - Rules for MPI's and Kokkos' calls -----------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Plugin/LibraryGradients.h"

#include "Core/KokkosRuntime.h"
#include "Core/MpiRuntime.h"
#include "Core/RuntimeLibrary.h"
#include "Plugin/LaunchDerivatives.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

/// `__enzyme_<Kind>_<F>` = {F, the run-time's <Prefix>_<Suffix>...}, unless
/// the user registered F (\p Registered) or the global exists.
static void
registerRuntimeRule(Module &M, Function &F, StringRef Kind, StringRef Prefix,
                    ArrayRef<StringRef> Suffixes,
                    const SmallPtrSetImpl<const Function *> &Registered) {
  std::string Name = ("__enzyme_" + Kind + "_" + F.getName()).str();
  if (Registered.count(&F) || M.getNamedGlobal(Name))
    return;
  SmallVector<Constant *, 3> Entries = {&F};
  for (StringRef Suffix : Suffixes)
    Entries.push_back(getRuntimeFunction(M, (Prefix + Suffix).str()));
  auto *Ty =
      ArrayType::get(PointerType::getUnqual(M.getContext()), Entries.size());
  new GlobalVariable(M, Ty, /*isConstant=*/false, GlobalValue::InternalLinkage,
                     ConstantArray::get(Ty, Entries), Name);
}

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
  SmallPtrSet<const Function *, 8> Registered = registeredFunctions(M);
  for (Function *F : Called) {
    // A wait completes requests whose adjoint messages its reverse starts,
    // whatever its own arguments carry.
    if (F->getName() == "MPI_Wait" || F->getName() == "MPI_Waitall")
      F->addFnAttr(CarriesHiddenDerivatives);
    registerRuntimeRule(M, *F, "register_gradient",
                        mpiGradientPrefix(F->getName()),
                        {"_augment", "_reverse"}, Registered);
  }
}

void prepareKokkosCalls(Module &M) {
  if (!canLinkRuntime(M))
    return;
  // Declared (Debian's shared library) or defined (a Kokkos built with
  // -fenzyme): the rules stand for the library's functions either way.
  SmallVector<Function *, 8> Ruled;
  Function *HostCopy = nullptr;
  for (Function &F : M) {
    if (F.use_empty())
      continue;
    if (!kokkosRulePrefix(F.getName()).empty())
      Ruled.push_back(&F);
    // Marked, so that a virtual call that may reach it (a record's label)
    // knows it for a target without derivatives (IndirectCalls.h).
    else if (isInactiveKokkosFunction(&F))
      F.addFnAttr("enzyme_inactive");
    else if (isKokkosHostCopy(F))
      HostCopy = &F;
  }
  SmallPtrSet<const Function *, 8> Registered = registeredFunctions(M);
  // The rules call the library's functions by name: a Kokkos built with
  // -fenzyme has them in the module, internal after the link's
  // internalisation, where the rules' declarations would not find them
  // (the linker renames an internal function that a declaration names).
  SmallVector<std::pair<Function *, GlobalValue::LinkageTypes>, 8> Local;
  for (Function *F : Ruled)
    if (F->hasLocalLinkage()) {
      Local.push_back({F, F->getLinkage()});
      F->setLinkage(GlobalValue::ExternalLinkage);
    }
  for (Function *F : Ruled) {
    StringRef Prefix = kokkosRulePrefix(F->getName());
    registerRuntimeRule(M, *F, "register_gradient", Prefix,
                        {"_augment", "_reverse"}, Registered);
    registerRuntimeRule(M, *F, "register_derivative", Prefix, {"_forward"},
                        Registered);
  }
  for (auto [F, Linkage] : Local)
    F->setLinkage(Linkage);
  if (!HostCopy || !HostCopy->isDeclaration() || Registered.count(HostCopy))
    return;
  // deep_copy between host Views copies bytes: as a memcpy, the engine's
  // type analysis says what the bytes are, and their adjoints move back.
  // Every call, in code differentiated or not: a request through a
  // function pointer reaches code that no scan lists, and a library without
  // bitcode (Debian's, Serial) copies with memcpy anyway.
  SmallVector<CallInst *, 4> Copies;
  for (User *U : HostCopy->users())
    if (auto *Call = dyn_cast<CallInst>(U);
        Call && Call->getCalledFunction() == HostCopy)
      Copies.push_back(Call);
  for (CallInst *Call : Copies) {
    IRBuilder<> B(Call);
    CallInst *Copy = B.CreateMemCpy(Call->getArgOperand(0), MaybeAlign(),
                                    Call->getArgOperand(1), MaybeAlign(),
                                    Call->getArgOperand(2));
    // Inside deep_copy<double*, ...>, what the bytes are is known: said to
    // the type analysis as the copy's access type, as clang would.
    if (StringRef Element = kokkosDeepCopyElement(*Call->getFunction());
        !Element.empty()) {
      MDBuilder MDB(M.getContext());
      MDNode *Char = MDB.createTBAAScalarTypeNode(
          "omnipotent char", MDB.createTBAARoot("Simple C++ TBAA"));
      MDNode *Scalar = MDB.createTBAAScalarTypeNode(Element, Char);
      Copy->setMetadata(LLVMContext::MD_tbaa,
                        MDB.createTBAAStructTagNode(Scalar, Scalar, 0));
    }
    Call->eraseFromParent();
  }
}

} // namespace enzyme
