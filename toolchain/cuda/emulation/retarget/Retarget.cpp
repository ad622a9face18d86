//===- Retarget.cpp - Turn an NVPTX device module into host code ----------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Address spaces stay as they are: every NVPTX pointer is 64 bits wide, the
/// host backends treat address spaces below 256 as one flat memory, and an
/// `addrspacecast` between them is a no-op there. So the device code keeps
/// its shape, and only what names GPU hardware changes.
///
//===----------------------------------------------------------------------===//

#include "Retarget.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace enzyme::cuda_emulation {

void DiagnosticList::error(const Instruction &At, const Twine &Message) {
  const DILocation *Location = At.getDebugLoc().get();
  if (!Location) {
    error(*At.getFunction(), Message);
    return;
  }
  // Code inlined from a header reports the line that called it, and where
  // in the header it came from.
  const DILocation *Outermost = Location;
  while (const DILocation *Caller = Outermost->getInlinedAt())
    Outermost = Caller;
  std::string Text;
  raw_string_ostream OS(Text);
  OS << Outermost->getFilename() << ':' << Outermost->getLine() << ':'
     << Outermost->getColumn() << ": error: " << Message;
  if (Outermost != Location)
    OS << " (in code inlined from " << Location->getFilename() << ':'
       << Location->getLine() << ')';
  add(std::move(Text));
}

void DiagnosticList::add(std::string Message) {
  // Copies of one inlined function repeat the same error.
  if (!is_contained(Messages, Message))
    Messages.push_back(std::move(Message));
}

void DiagnosticList::error(const Function &At, const Twine &Message) {
  std::string Text;
  raw_string_ostream OS(Text);
  if (const DISubprogram *Program = At.getSubprogram())
    OS << Program->getFilename() << ':' << Program->getLine() << ": ";
  OS << "error: " << Message << " (in device function '"
     << demangle(At.getName().str()) << "')";
  add(std::move(Text));
}

void DiagnosticList::print(raw_ostream &OS) const {
  for (const std::string &Message : Messages)
    OS << Message << '\n';
}

/// Drops what only the NVPTX backend understands: its CPU and features, the
/// kernel calling conventions and annotations.
static void dropDeviceTargetDetails(Module &M) {
  for (Function &F : M) {
    F.removeFnAttr("target-cpu");
    F.removeFnAttr("target-features");
    F.setCallingConv(CallingConv::C);
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallBase>(&I))
        Call->setCallingConv(CallingConv::C);
  }
  for (StringRef Name : {"nvvm.annotations", "nvvmir.version"})
    if (NamedMDNode *Node = M.getNamedMetadata(Name))
      M.eraseNamedMetadata(Node);
}

// Without relocatable device code, nothing of the device module is visible
// to the host program but its registration constructor.
void internalize(Module &M, function_ref<bool(const GlobalValue &)> Keep) {
  for (GlobalValue &G : M.global_values()) {
    if (G.isDeclaration() || G.hasLocalLinkage() ||
        G.getName().starts_with("llvm.") || (Keep && Keep(G)))
      continue;
    G.setLinkage(GlobalValue::InternalLinkage);
    G.setVisibility(GlobalValue::DefaultVisibility);
    G.setDSOLocal(true);
    if (auto *Object = dyn_cast<GlobalObject>(&G))
      Object->setComdat(nullptr);
  }
  SmallVector<Comdat *, 4> Unused;
  for (auto &Entry : M.getComdatSymbolTable())
    Unused.push_back(&Entry.second);
  for (Comdat *C : Unused)
    M.getComdatSymbolTable().erase(C->getName());
}

/// An instruction that uses \p V, directly or through constant expressions.
static const Instruction *firstInstructionUsing(const Value &V) {
  SmallVector<const User *, 8> Work(V.users());
  SmallPtrSet<const User *, 8> Seen;
  while (!Work.empty()) {
    const User *U = Work.pop_back_val();
    if (!Seen.insert(U).second)
      continue;
    if (const auto *I = dyn_cast<Instruction>(U))
      return I;
    if (isa<ConstantExpr>(U))
      Work.append(U->user_begin(), U->user_end());
  }
  return nullptr;
}

/// Declarations of device variables: clang's builtin index objects, which
/// code at -O0 may take the address of (their members read the registers),
/// get storage; any other variable defined elsewhere goes to \p OtherFiles
/// (relocatable device code), or is an error.
static void
defineDeviceVariables(Module &M, DiagnosticList &Diags,
                      SmallSetVector<GlobalValue *, 4> *OtherFiles) {
  for (GlobalVariable &G : M.globals()) {
    if (!G.isDeclaration() || G.getAddressSpace() == 3)
      continue;
    StringRef Name = G.getName();
    if (Name == "threadIdx" || Name == "blockIdx" || Name == "blockDim" ||
        Name == "gridDim" || Name == "warpSize") {
      G.setInitializer(Constant::getNullValue(G.getValueType()));
      G.setLinkage(GlobalValue::InternalLinkage);
      continue;
    }
    if (OtherFiles) {
      OtherFiles->insert(&G);
      continue;
    }
    if (const Instruction *User = firstInstructionUsing(G))
      Diags.error(*User, "the device variable '" + demangle(Name.str()) +
                             "' has no definition in this file; define it "
                             "here, or build the files that share device "
                             "code with -fgpu-rdc (relocatable device code)");
  }
}

bool retargetToHost(Module &M, const RetargetOptions &Options,
                    raw_ostream &Errors) {
  if (!Triple(M.getTargetTriple()).isNVPTX()) {
    Errors << "error: '" << M.getModuleIdentifier()
           << "' is not an NVPTX device module (its target is '"
           << M.getTargetTriple() << "')\n";
    return false;
  }
  DiagnosticList Diags;
  SmallVector<Function *, 8> Kernels = findKernels(M);
  SmallSetVector<GlobalValue *, 4> OtherFiles;
  SmallSetVector<GlobalValue *, 4> *Linked =
      Options.Relocatable ? &OtherFiles : nullptr;
  lowerDeviceCalls(M, Diags, Linked);
  defineDeviceVariables(M, Diags, Linked);
  SharedMemoryLayout Shared = lowerSharedMemory(M, Kernels, Diags);
  if (!Diags.empty()) {
    Diags.print(Errors);
    return false;
  }
  emitRegistration(M, Kernels, Shared, Options);
  dropDeviceTargetDetails(M);
  if (Options.Relocatable)
    linkAcrossFiles(M, OtherFiles);
  else
    internalize(M);
  M.setTargetTriple(Options.HostTriple);
  M.setDataLayout(Options.HostDataLayout);
  if (!Options.KeepDebugInfo)
    StripDebugInfo(M);
  if (verifyModule(M, &Errors)) {
    Errors << "error: internal error: the retargeted device module is "
              "invalid\n";
    return false;
  }
  return true;
}

} // namespace enzyme::cuda_emulation
