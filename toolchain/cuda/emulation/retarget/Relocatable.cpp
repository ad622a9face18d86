//===- Relocatable.cpp - Device code linked across files (-fgpu-rdc) ------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// With relocatable device code a file's device code may call device
/// functions and read device variables that another file defines, and a
/// GPU's device link joins them. Emulated device code is host code, so the
/// host link joins it: the symbols device code shares across files get a
/// suffix that keeps them apart from the host symbols of the same names.
///
/// The host compilation of such a file does not register its GPU binary
/// itself: its constructor calls `__cudaRegisterLinkedBinary_<module id>`,
/// which the device link would define. The module id is the hex GUID clang
/// gives the file's fat binary wrapper (`__cuda_fatbin_wrapper`, an
/// internal symbol of the source file), which the device module, compiled
/// from the same source file, can name too. Should another clang name it
/// otherwise, the program fails to link on that symbol rather than running
/// without its kernels.
///
//===----------------------------------------------------------------------===//

#include "Retarget.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace enzyme::cuda_emulation {

std::string linkedDeviceName(StringRef Name) {
  // A suffix after a dot keeps a mangled name readable in the linker's
  // messages: `helper(double) [clone .cuda_device]`.
  return (Name + ".cuda_device").str();
}

/// Definitions that other files' device code may name: those of external
/// or weak linkage. Inline and template functions (linkonce) are defined
/// in every file that uses them.
static bool sharedAcrossFiles(const GlobalValue &G) {
  return !G.isDeclaration() && !G.hasLocalLinkage() &&
         !G.hasLinkOnceLinkage() && !G.hasAvailableExternallyLinkage() &&
         !G.getName().starts_with("llvm.");
}

/// `__cudaRegisterLinkedBinary_<id>(register_globals, wrapper, id, dummy)`
/// registers the file's stand-in binary and then its kernels and variables
/// (the host compilation's `__cuda_register_globals`), as the
/// non-relocatable constructor does.
static void defineLinkedRegistration(Module &M) {
  GlobalValue::GUID Wrapper =
      GlobalValue::getGUID(GlobalValue::getGlobalIdentifier(
          "__cuda_fatbin_wrapper", GlobalValue::InternalLinkage,
          M.getSourceFileName()));
  std::string Name;
  raw_string_ostream(Name) << "__cudaRegisterLinkedBinary__nv_"
                           << format("%" PRIx64, Wrapper);
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx), *Void = Type::getVoidTy(Ctx);
  auto *Entry =
      Function::Create(FunctionType::get(Void, {Ptr, Ptr, Ptr, Ptr}, false),
                       GlobalValue::ExternalLinkage, Name, M);
  Entry->setVisibility(GlobalValue::HiddenVisibility);
  Entry->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Entry));
  B.CreateCall(
      runtimeFunction(M, "__cudaemu_register_linked_binary", Void, {Ptr, Ptr}),
      {Entry->getArg(0), Entry->getArg(1)});
  B.CreateRetVoid();
}

/// Device functions of other files that device code names without calling
/// them (a function pointer's value): declarations used other than as a
/// callee, but for intrinsics and the runtime's functions.
static void addFunctionsNamed(Module &M,
                              SmallSetVector<GlobalValue *, 4> &OtherFiles) {
  for (Function &F : M) {
    if (!F.isDeclaration() || F.isIntrinsic() ||
        F.getName().starts_with("__cudaemu_"))
      continue;
    if (any_of(F.uses(), [](const Use &U) {
          auto *Call = dyn_cast<CallBase>(U.getUser());
          return !Call || !Call->isCallee(&U);
        }))
      OtherFiles.insert(&F);
  }
}

void linkAcrossFiles(Module &M, SmallSetVector<GlobalValue *, 4> &OtherFiles) {
  // Clang's list of the device symbols host code uses, which a GPU's device
  // link keeps; host and device code are one program here.
  if (GlobalVariable *Used = M.getNamedGlobal("__clang_gpu_used_external")) {
    removeFromUsedLists(M, [&](Constant *C) { return C == Used; });
    Used->eraseFromParent();
  }
  addFunctionsNamed(M, OtherFiles);
  SmallVector<GlobalValue *, 16> Shared;
  for (GlobalValue &G : M.global_values())
    if (sharedAcrossFiles(G))
      Shared.push_back(&G);
  // internalize() drops every comdat: a weak definition is linked by its
  // own name, not by the host's comdat of that name.
  for (GlobalValue *G : Shared)
    if (auto *Object = dyn_cast<GlobalObject>(G))
      Object->setComdat(nullptr);
  internalize(M, sharedAcrossFiles);
  for (GlobalValue *G : Shared) {
    G->setName(linkedDeviceName(G->getName()));
    G->setVisibility(GlobalValue::HiddenVisibility);
  }
  for (GlobalValue *G : OtherFiles)
    G->setName(linkedDeviceName(G->getName()));
  defineLinkedRegistration(M);
}

} // namespace enzyme::cuda_emulation
