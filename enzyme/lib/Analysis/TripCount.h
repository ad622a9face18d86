//===- TripCount.h - Loop trip counts and final counter values -*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What scalar evolution knows of a loop before it runs, as IR: the exact
/// number of iterations (the augmented forward pass reserves tape room for a
/// loop's pushes once, so the pushes inside need no capacity check) and the
/// last value of a counter (the reverse pass computes where to start
/// stepping the counter back instead of taking it from the tape).
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_ANALYSIS_TRIPCOUNT_H
#define ENZYME_ANALYSIS_TRIPCOUNT_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"

namespace llvm {
class Loop;
class PHINode;
class SCEV;
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

/// The value \p Counter, a counter of \p L, has in the loop's last
/// iteration, when the loop has one exit (at its latch) and an exact trip
/// count; null otherwise. \p Leaves receives the values it is computed from
/// (values from outside the loop and header phis of enclosing loops).
const llvm::SCEV *
counterFinalValue(llvm::PHINode &Counter, llvm::Loop &L,
                  llvm::ScalarEvolution &SE,
                  llvm::SmallVectorImpl<llvm::Value *> &Leaves);

/// Emits \p S, a value counterFinalValue() gave for a counter of \p L, at
/// \p B's insertion point, with \p Map giving each leaf's value there.
llvm::Value *
emitInvariant(const llvm::SCEV *S, llvm::Loop &L, llvm::ScalarEvolution &SE,
              llvm::IRBuilder<> &B,
              llvm::function_ref<llvm::Value *(llvm::Value *)> Map);

/// Emits \p S, an expression without recurrences, at \p B's insertion
/// point, with \p Map giving each leaf's value there (null where it cannot:
/// then the result is null).
llvm::Value *
emitExpression(const llvm::SCEV *S, llvm::ScalarEvolution &SE,
               llvm::IRBuilder<> &B,
               llvm::function_ref<llvm::Value *(llvm::Value *)> Map);

} // namespace enzyme

#endif // ENZYME_ANALYSIS_TRIPCOUNT_H
