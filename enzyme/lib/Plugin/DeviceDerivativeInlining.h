//===- DeviceDerivativeInlining.h - Derivatives inside kernels --*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The engine runs after the inliner, so a derivative of device code would
/// stay a call from the kernel that asks for it. Inside the kernel it knows
/// more: a kernel's pointer arguments point to global memory (as the NVPTX
/// backend assumes for CUDA), so its loads and adjoint additions need no
/// run-time test of their address space, and no generic fallback.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_PLUGIN_DEVICEDERIVATIVEINLINING_H
#define ENZYME_PLUGIN_DEVICEDERIVATIVEINLINING_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace enzyme {

/// In GPU device code: marks the functions \p IsGenerated selects (the
/// engine made them in this run) as convergent, as clang marks device
/// functions (they shuffle, vote and wait), and those that a function
/// \p AsksForDerivatives calls to be inlined once AD is done.
void inlineDerivativesIntoRequesters(
    llvm::Module &M,
    llvm::function_ref<bool(const llvm::Function &)> IsGenerated,
    llvm::function_ref<bool(const llvm::Function &)> AsksForDerivatives);

/// In CUDA kernels: answers the engine's address-space queries (`isspacep`
/// of a shadow it adds into) of pointers that derive from the kernel's
/// pointer arguments alone, which point to global memory. The program's own
/// queries stay as they are. Only kernels that \p Touched selects (the
/// engine made them, or inlined derivatives into them) can hold such
/// queries.
void answerKernelArgumentSpaceQueries(
    llvm::Module &M, llvm::function_ref<bool(const llvm::Function &)> Touched);

} // namespace enzyme

#endif // ENZYME_PLUGIN_DEVICEDERIVATIVEINLINING_H
