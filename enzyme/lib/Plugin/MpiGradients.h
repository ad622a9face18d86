//===- MpiGradients.h - Custom gradients of MPI calls -----------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// MPI calls in differentiated code get the run-time's custom gradients
/// (Core/MpiRuntime.h, runtime/MpiRules.c) through registrations written
/// here, which the engine reads like a user's.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_PLUGIN_MPIGRADIENTS_H
#define ENZYME_PLUGIN_MPIGRADIENTS_H

#include "llvm/ADT/ArrayRef.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace enzyme {

/// Registers the run-time's gradients of the MPI functions that \p M
/// declares, where reverse-mode requests reach code (\p Reached), unless
/// the user registered their own.
void prepareMpiCalls(llvm::Module &M, llvm::ArrayRef<llvm::Function *> Reached);

} // namespace enzyme

#endif // ENZYME_PLUGIN_MPIGRADIENTS_H
