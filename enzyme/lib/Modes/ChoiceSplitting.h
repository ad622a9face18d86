//===- ChoiceSplitting.h - Reads through a choice of memories -*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `const double *p = k > 0 ? w : c;` with `w` carrying derivatives and `c`
/// not (an enzyme_const argument, a global table) is a select or phi of
/// pointers of which one side has no shadow: there is no shadow pointer to
/// choose for `c`, and no size to allocate a zeroed one. When the program
/// only reads through the choice (loads through GEPs of it), the reads are
/// split by the choice instead: each load becomes a branch on the same
/// condition with a load from each side, and the side without derivatives
/// reads inactive values. What the optimiser merged (or the user wrote as
/// one pointer) is two accesses again, each differentiated on its own.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_CHOICESPLITTING_H
#define ENZYME_MODES_CHOICESPLITTING_H

#include "Core/Activity.h"

#include "llvm/ADT/ArrayRef.h"

namespace llvm {
class Function;
} // namespace llvm

namespace enzyme {

/// Splits the reads through each pointer choice of the prepared function
/// \p F that mixes memory with and without shadows (ActivityAnalysis's
/// unshadowedChoice), where the choice is only read through; true if
/// something changed. The arguments are those of the ActivityAnalysis the
/// generator will run.
bool splitReadsThroughMixedChoices(llvm::Function &F,
                                   llvm::ArrayRef<Activity> ArgActivities,
                                   bool ReturnShadow, bool ContextShadows);

} // namespace enzyme

#endif // ENZYME_MODES_CHOICESPLITTING_H
