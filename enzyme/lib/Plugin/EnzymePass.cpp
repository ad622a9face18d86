//===- EnzymePass.cpp - The module pass that serves __enzyme_* calls ------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Plugin/EnzymePass.h"
#include "Core/CompileTimeBodies.h"
#include "Core/ContextShadows.h"
#include "Core/DeviceMathLibrary.h"
#include "Core/Diagnostics.h"
#include "Core/GlobalShadows.h"
#include "Core/GpuTarget.h"
#include "Core/KernelLaunches.h"
#include "Core/UserRegistrations.h"
#include "Modes/BlockAdjointSums.h"
#include "Modes/ForwardModeGenerator.h"
#include "Modes/ReverseModeGenerator.h"
#include "Plugin/BatchLowering.h"
#include "Plugin/DeviceDerivativeInlining.h"
#include "Plugin/DiffRequest.h"
#include "Plugin/ForwardLowering.h"
#include "Plugin/LaunchDerivatives.h"
#include "Plugin/LibraryGradients.h"
#include "Plugin/LoweringSupport.h"
#include "Plugin/MemoryAnnotations.h"
#include "Plugin/RequestLowering.h"
#include "Plugin/RequestOrder.h"
#include "Plugin/RequestStandIn.h"

#include "llvm/ADT/StringRef.h"

#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <vector>

using namespace llvm;

namespace enzyme {

static cl::opt<bool> TracePipeline(
    "enzyme-trace-pipeline", cl::init(false), cl::Hidden,
    cl::desc("Print a line to stderr each time the Enzyme pass runs on a "
             "module (also enabled by ENZYME_TRACE_PIPELINE=1)"));

static cl::opt<bool> StripDebugInfoAfterwards(
    "enzyme-strip-debug-info", cl::init(false), cl::Hidden,
    cl::desc("Strip debug information after the compile-time run (the "
             "driver adds line tables only for the engine's error locations)"));

static cl::opt<std::string> DumpInputTo(
    "enzyme-dump-input", cl::init(""), cl::Hidden,
    cl::desc("Write each module the Enzyme pass is about to transform to "
             "this file (the last one wins), to reproduce a problem with "
             "opt -passes=enzyme"));

static cl::opt<bool> KeepCompileTimeBodies(
    "enzyme-keep-compile-time-bodies", cl::init(true), cl::Hidden,
    cl::desc("Keep each function body as the compile-time run sees it in "
             "the embedded bitcode, for requests served at the link "
             "(CompileTimeBodies.h)"));

/// Named metadata that marks a module whose compile-time requests were
/// served. A fat-LTO compilation runs the optimisation pipeline twice (once
/// before the bitcode is embedded, once for the native code); the marker
/// keeps the second run from repeating the first.
static constexpr StringLiteral CompileTimeDoneMarker = "enzyme.compile_done";

StringRef getPipelinePointName(PipelinePoint Point) {
  switch (Point) {
  case PipelinePoint::Explicit:
    return "explicit";
  case PipelinePoint::OptimizerEarly:
    return "optimizer-early";
  case PipelinePoint::NoOptimization:
    return "O0";
  case PipelinePoint::FullLinkTimeEarly:
    return "full-lto-early";
  }
  llvm_unreachable("unknown pipeline point");
}

static bool tracing() {
  if (TracePipeline)
    return true;
  std::optional<std::string> Env =
      sys::Process::GetEnv("ENZYME_TRACE_PIPELINE");
  return Env && !Env->empty() && *Env != "0";
}

static bool isCompileTimePoint(PipelinePoint Point) {
  return Point == PipelinePoint::OptimizerEarly ||
         Point == PipelinePoint::NoOptimization;
}

/// Passes after the compile-time run change the bodies that requests served
/// at the link would read: the optimiser's vectorisers and unrollers, or a
/// sanitizer's instrumentation (which also runs at -O0).
static bool laterPassesRewriteBodies(const Module &M, OptimizationLevel Level) {
  if (Level != OptimizationLevel::O0)
    return true;
  return any_of(M, [](const Function &F) {
    return F.hasFnAttribute(Attribute::SanitizeAddress) ||
           F.hasFnAttribute(Attribute::SanitizeHWAddress) ||
           F.hasFnAttribute(Attribute::SanitizeMemory) ||
           F.hasFnAttribute(Attribute::SanitizeThread) ||
           F.hasFnAttribute(Attribute::SanitizeMemTag);
  });
}

PreservedAnalyses EnzymePass::run(Module &M, ModuleAnalysisManager &MAM) {
  // Scan mode only lists the kernels that host code launches.
  if (!launchedKernelListPath().empty()) {
    if (isCompileTimePoint(Point) && !isGpuModule(M))
      listLaunchedKernels(M);
    return PreservedAnalyses::all();
  }
  if (isCompileTimePoint(Point)) {
    // The native-code half of a fat-LTO compilation: the bodies kept for
    // the link are in the bitcode already and must not reach the object.
    if (M.getNamedMetadata(CompileTimeDoneMarker)) {
      dropBodiesKeptForTheLink(M);
      return PreservedAnalyses::none();
    }
    M.getOrInsertNamedMetadata(CompileTimeDoneMarker);
    // At -O0 no pipeline-start step ran (PluginEntry.cpp).
    createLaunchGradients(M);
    UserRegistrations::keepRegistrationsToTheLink(M);
  }

  if (tracing())
    errs() << "enzyme: pass ran on module '" << M.getModuleIdentifier() << "' ("
           << M.getTargetTriple() << ") at " << getPipelinePointName(Point)
           << "\n";

  if (!DumpInputTo.empty()) {
    std::error_code EC;
    raw_fd_ostream Out(DumpInputTo, EC);
    if (!EC)
      M.print(Out, nullptr);
  }
  serveRequests(M, MAM);
  // GPU device code has no link-time run to keep bodies for.
  if (KeepCompileTimeBodies && isCompileTimePoint(Point) && !isGpuModule(M) &&
      laterPassesRewriteBodies(M, Level))
    keepBodiesForTheLink(M);
  if (Point == PipelinePoint::FullLinkTimeEarly)
    dropBodiesKeptForTheLink(M);
  if (StripDebugInfoAfterwards && isCompileTimePoint(Point))
    StripDebugInfo(M);
  return PreservedAnalyses::none();
}

/// Split-mode halves of one function whose activities differ from every
/// request of the other half in the module: their tapes cannot match, so
/// each is an error that names where the other half was asked for.
static SmallPtrSet<const CallBase *, 4>
findMismatchedSplitPairs(ArrayRef<DiffRequest> Requests) {
  SmallPtrSet<const CallBase *, 4> Mismatched;
  auto IsHalf = [](RequestMode M) {
    return M == RequestMode::AugmentedForward || M == RequestMode::ReverseSplit;
  };
  for (const DiffRequest &R : Requests) {
    if (!IsHalf(R.Mode))
      continue;
    const DiffRequest *Other = nullptr;
    bool Matched = false;
    for (const DiffRequest &O : Requests) {
      if (!IsHalf(O.Mode) || O.Mode == R.Mode || O.Fn != R.Fn)
        continue;
      Other = &O;
      Matched |= !(splitSignature(O) < splitSignature(R)) &&
                 !(splitSignature(R) < splitSignature(O));
    }
    if (!Other || Matched)
      continue;
    std::string Where = describeLocation(Other->Call->getDebugLoc());
    if (bool(R.Context) != bool(Other->Context)) {
      reportError(
          *R.Call,
          Twine(requestEntryName(R.Mode)) + ": this half of split " +
              "mode of '" + displayName(R.Fn->getName()) + "' has " +
              (R.Context ? "an enzyme_context, " : "no enzyme_context, ") +
              "but " + requestEntryName(Other->Mode) +
              (Where.empty() ? "" : " at " + Where) +
              (R.Context ? " has none" : " has one") +
              "; give both halves the same context, since the "
              "globals' shadows are kept in it");
      Mismatched.insert(R.Call);
      continue;
    }
    std::string OtherHalf = requestEntryName(Other->Mode).str() +
                            (Where.empty() ? "" : " at " + Where);
    if (R.Width != Other->Width) {
      reportError(*R.Call,
                  Twine(requestEntryName(R.Mode)) + ": the width of '" +
                      displayName(R.Fn->getName()) + "' ('enzyme_width, " +
                      Twine(R.Width) + "') differs from that of " + OtherHalf +
                      " (" + Twine(Other->Width) +
                      "); both halves of split mode must compute "
                      "the same directions, since they share the "
                      "tape");
    } else {
      // Halves that differ only in `enzyme_nocache` are told so.
      ReverseSignature Mine = splitSignature(R),
                       Theirs = splitSignature(*Other);
      Mine.KeptArgs.clear();
      Theirs.KeptArgs.clear();
      bool OnlyNoCache = !(Mine < Theirs) && !(Theirs < Mine);
      reportError(
          *R.Call,
          Twine(requestEntryName(R.Mode)) + ": the " +
              (OnlyNoCache ? "'enzyme_nocache' markers" : "activities") +
              " of '" + displayName(R.Fn->getName()) +
              "' differ from those of " + OtherHalf +
              "; both halves of split mode must mark every argument "
              "the same way, since they share the tape");
    }
    Mismatched.insert(R.Call);
  }
  return Mismatched;
}

/// Some use of \p Marker is still an argument of an `__enzyme_*` call (a
/// request waiting for the link).
static bool feedsRequest(const GlobalVariable &Marker) {
  SmallVector<const User *, 8> Work(Marker.user_begin(), Marker.user_end());
  SmallPtrSet<const User *, 8> Seen;
  while (!Work.empty()) {
    const User *U = Work.pop_back_val();
    if (!Seen.insert(U).second)
      continue;
    if (const auto *Call = dyn_cast<CallBase>(U)) {
      const Value *Callee = Call->getCalledOperand()->stripPointerCasts();
      if (Callee->getName().contains("__enzyme_"))
        return true;
      continue;
    }
    if (isa<LoadInst>(U) || isa<ConstantExpr>(U) || isa<CastInst>(U))
      Work.append(U->user_begin(), U->user_end());
  }
  return false;
}

/// `__enzyme_virtualreverse(f)` gives Enzyme's users the entry of a shadow
/// vtable. Calls through pointers dispatch on the primal object's vtable
/// here (IndirectCalls.cpp), so shadow vtables are never read: the call
/// becomes its argument, and programs that build such vtables keep working.
static void lowerVirtualReverse(Module &M) {
  for (Function &F : make_early_inc_range(M)) {
    if (!F.isDeclaration() || !F.getName().contains("__enzyme_virtualreverse"))
      continue;
    for (User *U : make_early_inc_range(F.users())) {
      auto *Call = dyn_cast<CallBase>(U);
      if (!Call || Call->getCalledOperand() != &F)
        continue;
      if (Call->arg_size() != 1 ||
          !Call->getArgOperand(0)->getType()->isPointerTy() ||
          !Call->getType()->isPointerTy()) {
        reportError(*Call, "__enzyme_virtualreverse takes a function pointer "
                           "and returns a pointer");
        continue;
      }
      IRBuilder<> B(Call);
      Call->replaceAllUsesWith(B.CreatePointerBitCastOrAddrSpaceCast(
          Call->getArgOperand(0), Call->getType()));
      if (auto *Invoke = dyn_cast<InvokeInst>(Call))
        BranchInst::Create(Invoke->getNormalDest(), Invoke->getIterator());
      Call->eraseFromParent();
    }
  }
}

void EnzymePass::serveRequests(Module &M, ModuleAnalysisManager &MAM) {
  lowerVirtualReverse(M);
  lowerContextCalls(M);
  specializeFunctionArguments(M);
  SmallVector<DiffRequest, 4> Requests = collectRequests(M);
  bool DefinesKernelDerivatives = isGpuModule(M) && anyDerivativeKernels();
  if (Requests.empty() && !DefinesKernelDerivatives) {
    finishMemoryAnnotations(M, !isCompileTimePoint(Point));
    finishDeviceMath(M);
    return;
  }

  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  std::optional<FunctionPassManager> Cleanup;
  if (PB && Level != OptimizationLevel::O0)
    Cleanup.emplace(PB->buildFunctionSimplificationPipeline(
        Level, ThinOrFullLTOPhase::None));
  createSharedMemoryShadows(M);
  // The shadows of `extern __shared__` arrays exist in the derivative
  // kernels of launches alone (Plugin/DynamicSharedShadows.cpp).
  SmallVector<GlobalVariable *, 2> DynamicSharedShadows;
  if (DefinesKernelDerivatives)
    DynamicSharedShadows = createDynamicSharedShadows(M);
  // Host code's kernel launches and CUDA memory calls, in the functions
  // the requests reach (computed once for both).
  if (!isGpuModule(M)) {
    SetVector<Function *> Reached = functionsRequestsReach(M);
    lowerDirectLaunches(M, Reached.getArrayRef());
    prepareCudaRuntimeCalls(M, Reached.getArrayRef());
    prepareMpiCalls(M, Reached.getArrayRef());
    prepareKokkosCalls(M);
  }
  UserRegistrations Registrations(M);
  // Requests whose callees are not all here wait for link time, where
  // every -fenzyme module's bitcode is present. GPU device code has no link
  // step that runs the engine (clang compiles each file's device code
  // completely), so there the compile-time run is the last chance.
  bool AllowDeferral = isCompileTimePoint(Point) && !isGpuModule(M);
  // One reverse generator per level of higher-order nesting: the tape
  // accesses of an inner derivative are user memory to the outer one, which
  // must not take them for its own tape's (RequestOrder.cpp).
  std::vector<std::unique_ptr<ReverseModeGenerator>> Generators;
  auto GeneratorAt = [&](unsigned Level) -> ReverseModeGenerator & {
    while (Generators.size() <= Level) {
      Generators.push_back(std::make_unique<ReverseModeGenerator>(
          M, FAM, Cleanup ? &*Cleanup : nullptr, &Registrations,
          Generators.size()));
      Generators.back()->deferIndirectCalls(AllowDeferral);
    }
    return *Generators[Level];
  };
  ForwardModeGenerator ForwardGenerator(M, FAM, Cleanup ? &*Cleanup : nullptr,
                                        &Registrations);
  ForwardGenerator.deferIndirectCalls(AllowDeferral);
  // Derivatives, and the functions that ask for them, once generated.
  SmallPtrSet<const Function *, 32> Earlier;
  for (const Function &F : M)
    Earlier.insert(&F);
  SmallPtrSet<const Function *, 4> Requesting;
  for (const DiffRequest &Request : Requests)
    Requesting.insert(Request.Call->getFunction());
  // The derivative kernels of kernels that differentiated host code
  // launches (Core/KernelLaunches.h).
  if (DefinesKernelDerivatives) {
    createKernelDerivatives(M, GeneratorAt(0));
    createTangentKernels(M, ForwardGenerator);
    lowerDynamicSharedShadows(M, DynamicSharedShadows);
  }
  SmallPtrSet<const CallBase *, 4> Mismatched =
      findMismatchedSplitPairs(Requests);
  // Inner requests of higher-order derivatives first (RequestOrder.cpp).
  // Their derivatives will be differentiated in turn, so their tapes must
  // be plain heap memory, not storage kept per thread.
  RequestOrder Order = orderInnerFirst(Requests);
  SmallVector<LoweringResult, 4> Results(Requests.size(), LoweringResult::Done);
  SmallVector<unsigned, 4> Levels(Requests.size(), 0);
  for (unsigned I : Order.Indices) {
    const DiffRequest &Request = Requests[I];
    for (unsigned J : Order.Inside[I])
      Levels[I] = std::max(Levels[I], Levels[J] + 1);
    ReverseModeGenerator &Generator = GeneratorAt(Levels[I]);
    if (Order.Nested)
      Generator.reuseTapeStorage(false);
    // A request around one that waits for the link waits too; around one
    // that failed, it is not attempted (that error is the one to read).
    LoweringResult Inner = LoweringResult::Done;
    for (unsigned J : Order.Inside[I])
      if (Results[J] != LoweringResult::Done)
        Inner = Results[J];
    if (Inner == LoweringResult::Deferred) {
      DifferentiationFailure Wait;
      Wait.MissingDefinition = true;
      Results[I] = handleGenerationFailure(Request, Wait, AllowDeferral);
      continue;
    }
    if (Inner == LoweringResult::Failed) {
      Results[I] = LoweringResult::Failed;
      continue;
    }
    RequestStandIn StandIn(Request);
    switch (Request.Mode) {
    case RequestMode::Reverse:
      Results[I] = lowerReverseRequest(Request, Generator, AllowDeferral);
      break;
    case RequestMode::Forward:
      Results[I] =
          lowerForwardRequest(Request, ForwardGenerator, AllowDeferral);
      break;
    case RequestMode::AugmentedForward:
    case RequestMode::ReverseSplit:
    case RequestMode::AugmentSize:
      Results[I] = Mismatched.count(Request.Call)
                       ? LoweringResult::Failed
                       : lowerSplitRequest(Request, Generator, AllowDeferral);
      break;
    case RequestMode::Batch:
      Results[I] =
          lowerBatchRequest(Request, FAM, Cleanup ? &*Cleanup : nullptr);
      break;
    }
  }

  finishMemoryAnnotations(M, !isCompileTimePoint(Point));
  auto IsGenerated = [&](const Function &F) { return !Earlier.count(&F); };
  auto AsksForDerivatives = [&](const Function &F) {
    return Requesting.count(&F) != 0;
  };
  inlineDerivativesIntoRequesters(M, IsGenerated, AsksForDerivatives);
  // Derivatives and the functions they were inlined into: the engine's code
  // is there.
  auto HoldsDerivatives = [&](const Function &F) {
    return IsGenerated(F) || AsksForDerivatives(F);
  };
  finishDeviceMath(M, HoldsDerivatives);
  answerKernelArgumentSpaceQueries(M, HoldsDerivatives);
  // In kernels, with their derivatives inlined.
  if (isCudaModule(M))
    for (Function &F : M)
      if (HoldsDerivatives(F))
        sumWarpAdditionsPerBlock(F);
  removeUnusedSharedMemoryShadows(M);
  if (DefinesKernelDerivatives)
    checkDynamicSharedShadowUsers(M);

  // Declared markers nothing refers to any more need no definition. Ones
  // that only code outside requests still refers to (a sanitizer's check of
  // the marker load, which survives the request) get a private one, so the
  // program links without the user defining them.
  for (GlobalVariable &GV : make_early_inc_range(M.globals())) {
    if (!GV.isDeclaration() || !GV.getName().starts_with("enzyme_"))
      continue;
    if (GV.use_empty()) {
      GV.eraseFromParent();
      continue;
    }
    if (!feedsRequest(GV)) {
      GV.setInitializer(Constant::getNullValue(GV.getValueType()));
      GV.setLinkage(GlobalValue::InternalLinkage);
    }
  }
}

} // namespace enzyme
