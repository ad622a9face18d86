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
/// start of full-LTO link-time optimisation.
///
//===----------------------------------------------------------------------===//

#include "Plugin/EnzymePass.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;
using namespace enzyme;

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
      });
}

extern "C" LLVM_ATTRIBUTE_WEAK
    LLVM_ATTRIBUTE_VISIBILITY_DEFAULT PassPluginLibraryInfo
    llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Enzyme", ENZYME_VERSION_STRING,
          registerEnzymePipeline};
}
