//===- PluginEntry.cpp - Pass plugin entry point and pipeline placement ---===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// One plugin serves opt (`-passes=enzyme`), clang (`-fpass-plugin=`) and lld
/// (`--load-pass-plugin=`). It places the Enzyme pass where DESIGN §3 says:
/// after function simplification at -O1..-O3, in the -O0 pipeline, and at the
/// start of full-LTO link-time optimisation, where sanitizer-instrumented code
/// also loses memory effects that instrumentation made false.
///
//===----------------------------------------------------------------------===//

#include "Core/DeviceMathLibrary.h"
#include "Core/KernelLaunches.h"
#include "Core/KokkosRuntime.h"
#include "Core/UserRegistrations.h"
#include "Plugin/EnzymePass.h"
#include "Plugin/LaunchDerivatives.h"
#include "Plugin/SanitizedMemoryEffects.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;
using namespace enzyme;

namespace {
/// Gives the stubs of kernels launched from differentiated host code their
/// custom gradients, marks the functions that `__enzyme_*` registrations
/// name noinline, as
/// libdevice functions with derivative rules in device code that asks for
/// derivatives and Kokkos' tile functions in OpenMP code.
struct KeepRegisteredFunctionsPass
    : PassInfoMixin<KeepRegisteredFunctionsPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    if (!launchedKernelListPath().empty())
      return PreservedAnalyses::all();
    createLaunchGradients(M);
    UserRegistrations::keepRegisteredFunctionsCallable(M);
    UserRegistrations::keepRegistrationsToTheLink(M);
    keepDeviceMathCallable(M);
    keepKokkosTilesCallable(M);
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};
} // namespace

static void registerEnzymePipeline(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [&PB](StringRef Name, ModulePassManager &MPM,
            ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != "enzyme")
          return false;
        MPM.addPass(
            EnzymePass(PipelinePoint::Explicit, &PB, OptimizationLevel::O2));
        return true;
      });

  // Functions that registrations name must reach the engine as calls: at
  // the start of every pipeline, before the inliner could take them apart.
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(KeepRegisteredFunctionsPass());
      });

  // The -O0 pipeline invokes the optimizer-early callbacks too; the level
  // tells the two placements apart.
  PB.registerOptimizerEarlyEPCallback(
      [&PB](ModulePassManager &MPM, OptimizationLevel Level) {
        MPM.addPass(EnzymePass(Level == OptimizationLevel::O0
                                   ? PipelinePoint::NoOptimization
                                   : PipelinePoint::OptimizerEarly,
                               &PB, Level));
      });

  PB.registerFullLinkTimeOptimizationEarlyEPCallback(
      [&PB](ModulePassManager &MPM, OptimizationLevel Level) {
        MPM.addPass(EnzymePass(PipelinePoint::FullLinkTimeEarly, &PB, Level));
        // After the engine, which reads the effects the program was written
        // with; before the link optimises sanitizer-instrumented code.
        MPM.addPass(ForgetMemoryEffectsOfSanitizedCodePass());
      });
}

extern "C" LLVM_ATTRIBUTE_WEAK
    LLVM_ATTRIBUTE_VISIBILITY_DEFAULT PassPluginLibraryInfo
    llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Enzyme", ENZYME_VERSION_STRING,
          registerEnzymePipeline};
}
