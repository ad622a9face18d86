//===- BatchLowering.h - Replacing __enzyme_batch ---------------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#ifndef ENZYME_PLUGIN_BATCHLOWERING_H
#define ENZYME_PLUGIN_BATCHLOWERING_H

#include "Plugin/DiffRequest.h"
#include "Plugin/RequestLowering.h"

#include "llvm/IR/PassManager.h"

namespace enzyme {

/// Replaces the `__enzyme_batch` call of \p Request with a call of an
/// internal function that evaluates the request's function on each of its
/// `enzyme_width` lanes and returns the results, converted to the type the
/// user declared. With \p Cleanup (-O1 and above), the lanes' calls are
/// inlined where LLVM's inline cost model agrees and the batch function is
/// simplified, so that the SLP vectoriser later in the pipeline sees N
/// isomorphic lanes.
LoweringResult lowerBatchRequest(const DiffRequest &Request,
                                 llvm::FunctionAnalysisManager &FAM,
                                 llvm::FunctionPassManager *Cleanup);

} // namespace enzyme

#endif // ENZYME_PLUGIN_BATCHLOWERING_H
