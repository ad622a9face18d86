//===- PreparedFunction.h - The copy of a function AD reads ---*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every generator differentiates a private, simplified copy of the function
/// (SSA form, no invokes, one return block, simplified loops), never the
/// user's function itself. This file makes and discards such copies, and
/// holds the small helpers that every generator uses when it creates the
/// functions it fills.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_PREPAREDFUNCTION_H
#define ENZYME_MODES_PREPAREDFUNCTION_H

#include "Core/Activity.h"
#include "Core/DifferentiationFailure.h"

#include "llvm/IR/PassManager.h"

#include "Modes/PackedFloatLanes.h"

namespace llvm {
class Function;
class Instruction;
} // namespace llvm

namespace enzyme {

/// A simplified private copy of \p F: invokes turned into calls, promoted
/// to SSA, unreachable code removed, floats moved as integers retyped, one
/// return block, loops in simplified form. \p PossibleTargets, where the
/// targets of calls through pointers are known, lets such calls that pass
/// structs packed into integers become direct (PackedFloatLanes.h).
llvm::Function *
prepareForDifferentiation(llvm::Function &F, llvm::FunctionAnalysisManager &FAM,
                          PossibleTargetsFn PossibleTargets = nullptr);

/// Erases a prepared copy (or any generated function) and its analyses.
void discardFunction(llvm::Function *F, llvm::FunctionAnalysisManager &FAM);

/// Copies the attributes that describe how to compile \p From (target,
/// floating-point environment), none that describe its behaviour: the
/// generated functions read and write memory \p From never touched.
void copyCodegenAttributes(const llvm::Function &From, llvm::Function &To);

/// The first instruction of \p F that produces or takes a scalable vector.
const llvm::Instruction *findScalableVectorUse(const llvm::Function &F);

/// Finishes a generated function \p F whose parameters are those of
/// \p Primal, then one shadow or tangent per argument that \p Activities
/// duplicates: guards its calls that may throw (ExceptionGuards.h), tells
/// LLVM that the shadows never overlap the primal memory, then runs
/// \p Cleanup (the post-AD pipeline) on it, or a minimal one without.
void finishGeneratedFunction(llvm::Function &F, const llvm::Function &Primal,
                             llvm::ArrayRef<Activity> Activities,
                             llvm::FunctionAnalysisManager &FAM,
                             llvm::FunctionPassManager *Cleanup);

/// Whether \p F can be prepared and differentiated from its body: it has
/// one, and no scalable vectors (LLVM 19's simplifycfg, which preparation
/// runs, aborts on some code with them). Fills \p Failure when not.
bool checkPreparable(const llvm::Function &F, DifferentiationFailure &Failure);

/// For a declaration marked inactive (`enzyme_inactive`, or a library
/// function the engine knows), reached where its derivative is asked for
/// (a possible target of a virtual call): a body that only calls it, made
/// once, which the generators differentiate instead. Null for any other
/// function.
llvm::Function *inactiveDeclarationBody(llvm::Function &F);

} // namespace enzyme

#endif // ENZYME_MODES_PREPAREDFUNCTION_H
