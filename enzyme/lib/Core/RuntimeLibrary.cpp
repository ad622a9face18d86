//===- RuntimeLibrary.cpp - Run-time support linked into modules ----------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/RuntimeLibrary.h"

#include "Core/Diagnostics.h"
#include "Core/GpuTarget.h"
#include "Core/ReusableFunctions.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/TargetParser/Triple.h"

#include "CudaCopies.inc"
#include "CudaLaunch.inc"
#include "CudaMemory.inc"
#include "ExceptionReport.inc"
#include "KokkosRules.inc"
#include "MisalignedAtomics.inc"
#include "MpiRules.inc"
#include "OpenMPRegions.inc"
#include "RbTree.inc"
#include "ScratchShadows.inc"
#include "ShadowRegistry.inc"
#include "TapeStorage.inc"
#include "UntypedCopyReport.inc"

using namespace llvm;

namespace enzyme {

std::pair<Value *, Value *> createReportSubject(IRBuilderBase &B,
                                                const Function &Primal,
                                                const DebugLoc &Loc,
                                                StringRef Prefix) {
  Value *Name =
      B.CreateGlobalString(displayName(Primal.getName()), Prefix + ".fn");
  std::string Location = describeLocation(Loc);
  Value *Where = Location.empty()
                     ? static_cast<Value *>(ConstantPointerNull::get(
                           PointerType::getUnqual(B.getContext())))
                     : B.CreateGlobalString(Location, Prefix + ".at");
  return {Name, Where};
}

bool reachesRuntimeCall(const Function &F, StringRef Name) {
  SmallPtrSet<const Function *, 16> Seen;
  SmallVector<const Function *, 16> Work = {&F};
  while (!Work.empty()) {
    const Function *Caller = Work.pop_back_val();
    if (!Seen.insert(Caller).second)
      continue;
    for (const Instruction &I : instructions(*Caller))
      if (const auto *Call = dyn_cast<CallBase>(&I))
        if (const Function *Callee = Call->getCalledFunction()) {
          if (Callee->getName() == Name)
            return true;
          // Generated functions are internal; the run-time's own are not
          // followed.
          if (!Callee->isDeclaration() && Callee->hasLocalLinkage())
            Work.push_back(Callee);
        }
  }
  return false;
}

bool canLinkRuntime(const Module &M) {
  Triple T(M.getTargetTriple());
  return T.isArch64Bit() && !isGpuTarget(T);
}

namespace {
/// One IR module per source file under enzyme/runtime/.
struct RuntimeSource {
  const char *IR;
  /// Restated library code that the generators differentiate (RbTree.c),
  /// rather than support code that no derivative looks into.
  bool Differentiated;
};
} // namespace

static const RuntimeSource RuntimeSources[] = {
    {ShadowRegistryIR, false},    {ExceptionReportIR, false},
    {UntypedCopyReportIR, false}, {CudaLaunchIR, false},
    {CudaMemoryIR, true},         {CudaCopiesIR, true},
    {RbTreeIR, true},
    {ScratchShadowsIR, false},    {OpenMPRegionsIR, false},
    {MpiRulesIR, false},          {KokkosRulesIR, false},
    {MisalignedAtomicsIR, false}, {TapeStorageIR, false}};

/// The IR of run-time source \p Source, ready to link into \p M.
static std::unique_ptr<Module> parseRuntime(Module &M,
                                            const RuntimeSource &Source) {
  SMDiagnostic Error;
  // Textual IR cannot be read into a context that discards value names, as
  // clang's does; names are kept while it is read.
  LLVMContext &Ctx = M.getContext();
  bool DiscardNames = Ctx.shouldDiscardValueNames();
  Ctx.setDiscardValueNames(false);
  std::unique_ptr<Module> Runtime = parseAssemblyString(Source.IR, Error, Ctx);
  Ctx.setDiscardValueNames(DiscardNames);
  if (!Runtime)
    report_fatal_error(
        "internal error: the embedded run-time does not parse: " +
        Error.getMessage());
  Runtime->setTargetTriple(M.getTargetTriple());
  Runtime->setDataLayout(M.getDataLayout());
  // What the C source keeps to itself (static helpers, string literals)
  // stays local: made linkonce_odr, two modules' copies of `.str.N` could
  // be different strings under one name, and one would be dropped.
  for (Function &F : *Runtime) {
    if (F.isDeclaration())
      continue;
    if (!F.hasLocalLinkage()) {
      F.setLinkage(GlobalValue::LinkOnceODRLinkage);
      F.setVisibility(GlobalValue::HiddenVisibility);
    }
    // The module's own target settings apply, so that callers can inline.
    for (StringRef Kind : {"target-cpu", "target-features", "tune-cpu"})
      F.removeFnAttr(Kind);
    if (!Source.Differentiated)
      F.addFnAttr("enzyme_inactive");
  }
  for (GlobalVariable &GV : Runtime->globals()) {
    // Each function is linked on its own (getRuntimeFunction), and each link
    // would bring its own copy of a static variable: state must be external.
    if (GV.hasLocalLinkage() && !GV.isConstant())
      report_fatal_error("internal error: the run-time keeps static state '" +
                         GV.getName() + "'; give it an external name");
    if (!GV.isDeclaration() && !GV.hasLocalLinkage()) {
      GV.setLinkage(GlobalValue::LinkOnceODRLinkage);
      GV.setVisibility(GlobalValue::HiddenVisibility);
    }
  }
  return Runtime;
}

Function *getRuntimeFunction(Module &M, StringRef Name) {
  // What an earlier run linked stays as it is, unless it has been
  // internalised since (at link time), when the optimiser may have changed it.
  if (Function *F = M.getFunction(Name);
      F && !F->isDeclaration() && !F->hasLocalLinkage())
    return F;
  std::unique_ptr<Module> Runtime;
  Function *Definition = nullptr;
  for (const RuntimeSource &Source : RuntimeSources) {
    Runtime = parseRuntime(M, Source);
    Definition = Runtime->getFunction(Name);
    if (Definition && !Definition->isDeclaration())
      break;
    Definition = nullptr;
  }
  if (!Definition)
    report_fatal_error("internal error: no run-time function " + Name);
  if (Function *F =
          findReusableFunction(M, Name, Definition->getFunctionType()))
    return F;
  // Only what M refers to is linked: declare it first.
  M.getOrInsertFunction(Name, Definition->getFunctionType());
  if (Linker::linkModules(M, std::move(Runtime), Linker::LinkOnlyNeeded))
    report_fatal_error("internal error: cannot link the run-time into " +
                       M.getName());
  return M.getFunction(Name);
}

} // namespace enzyme
