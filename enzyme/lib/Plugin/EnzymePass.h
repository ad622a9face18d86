//===- EnzymePass.h - The module pass that serves __enzyme_* calls -*- C++
//-*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The `enzyme` module pass: finds the differentiation requests in a module
/// and hands them to the engine. It runs at one point of each pipeline
/// (DESIGN §3); the point it was placed at is part of the pass so that the
/// trace can show where it ran.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_PLUGIN_ENZYMEPASS_H
#define ENZYME_PLUGIN_ENZYMEPASS_H

#include "llvm/IR/PassManager.h"
#include "llvm/Passes/OptimizationLevel.h"

namespace llvm {
class PassBuilder;
} // namespace llvm

namespace enzyme {

/// Where in a pipeline the pass was placed.
enum class PipelinePoint {
  /// `opt -passes=enzyme`.
  Explicit,
  /// Start of the module optimisation pipeline at -O1..-O3: after inlining
  /// and function simplification, before vectorisation and unrolling.
  OptimizerEarly,
  /// The -O0 pipeline.
  NoOptimization,
  /// Start of the full-LTO link-time pipeline (lld), where every callee's
  /// bitcode is present.
  FullLinkTimeEarly,
};

llvm::StringRef getPipelinePointName(PipelinePoint Point);

class EnzymePass : public llvm::PassInfoMixin<EnzymePass> {
public:
  /// \p PB and \p Level choose the cleanup pipeline run on generated code;
  /// without a PassBuilder (or at -O0) only a minimal cleanup runs.
  EnzymePass(PipelinePoint Point, llvm::PassBuilder *PB,
             llvm::OptimizationLevel Level)
      : Point(Point), PB(PB), Level(Level) {}

  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);

  /// Prints the name `opt -passes=` accepts, so printed pipelines re-parse.
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>) {
    OS << "enzyme";
  }

  /// Derivative requests must be served even in `optnone` code and at -O0.
  static bool isRequired() { return true; }

private:
  /// Differentiates every request of \p M that can be served here.
  void serveRequests(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);

  PipelinePoint Point;
  llvm::PassBuilder *PB;
  llvm::OptimizationLevel Level;
};

} // namespace enzyme

#endif // ENZYME_PLUGIN_ENZYMEPASS_H
