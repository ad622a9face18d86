//===- ChoiceGuards.h - Choices of memory without derivatives --*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A select or phi of pointers may choose between memory with derivatives
/// and memory without (an enzyme_const argument, a global, a buffer that
/// inactive code returned), which has no shadow and no size to allocate a
/// zeroed one. Reads through such a choice are split by it
/// (ChoiceSplitting.h); what is left is written through or passed on.
/// Often the side without a shadow is never taken: Eigen's GEMM chooses
/// between its caller's workspace, null unless it runs in parallel, and a
/// buffer of its own. So rather than refuse the function, the generators
/// give that side a null shadow and stop the program with a message
/// (runtime/ChoiceReport.c) if it is taken at run time: either the
/// derivative is right, or there is none. Targets without the run-time
/// (GPUs) keep the compile-time error.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_CHOICEGUARDS_H
#define ENZYME_MODES_CHOICEGUARDS_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class Function;
class Instruction;
class Value;
} // namespace llvm

namespace enzyme {

/// Emits, in the generated function, a check that stops the program when
/// \p Generated (the copy of \p Choice, a select or phi of pointers, with
/// its operands in the same order) takes an operand of \p Choice for which
/// \p LacksShadow holds. \p Primal names the differentiated function in
/// the message. The check goes after the choice (after the phis of its
/// block for a phi).
void guardUnshadowedChoice(
    llvm::Instruction &Choice, llvm::Instruction &Generated,
    llvm::function_ref<bool(const llvm::Value *)> LacksShadow,
    const llvm::Function &Primal);

} // namespace enzyme

#endif // ENZYME_MODES_CHOICEGUARDS_H
