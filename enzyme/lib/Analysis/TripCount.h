//===- TripCount.h - A loop's trip count as IR -----------------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Emits the exact number of iterations of a loop, from scalar evolution,
/// before the loop runs: the augmented forward pass reserves tape space for
/// a loop's pushes once, so the pushes inside need no capacity check.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_ANALYSIS_TRIPCOUNT_H
#define ENZYME_ANALYSIS_TRIPCOUNT_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"

namespace llvm {
class Loop;
class ScalarEvolution;
} // namespace llvm

namespace enzyme {

/// The number of times the header of \p L runs each time the loop is
/// entered, as an i64 computed at \p B's insertion point (the preheader),
/// or null when scalar evolution has no exact count made of operations
/// this expander emits. \p Map gives, for each value the count is made of,
/// the value to use at the insertion point (its copy in another function).
llvm::Value *
emitTripCount(llvm::Loop &L, llvm::ScalarEvolution &SE, llvm::IRBuilder<> &B,
              llvm::function_ref<llvm::Value *(llvm::Value *)> Map);

} // namespace enzyme

#endif // ENZYME_ANALYSIS_TRIPCOUNT_H
