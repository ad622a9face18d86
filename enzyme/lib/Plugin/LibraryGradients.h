//===- LibraryGradients.h - Rules for MPI's and Kokkos' calls ---*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Calls into libraries that the toolchain knows (MPI: Core/MpiRuntime.h;
/// Kokkos: Core/KokkosRuntime.h) get the run-time's custom derivatives
/// (runtime/MpiRules.c, runtime/KokkosRules.c) through registrations
/// written here, which the engine reads like a user's. A user's own
/// registration of the same function is kept as written.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_PLUGIN_LIBRARYGRADIENTS_H
#define ENZYME_PLUGIN_LIBRARYGRADIENTS_H

#include "llvm/ADT/ArrayRef.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace enzyme {

/// Registers the run-time's gradients of the MPI functions that \p M
/// declares, where reverse-mode requests reach code (\p Reached).
void prepareMpiCalls(llvm::Module &M, llvm::ArrayRef<llvm::Function *> Reached);

/// Registers the run-time's gradients and forward derivatives of the
/// Kokkos runtime functions that \p M calls, and turns Kokkos' host copies
/// in \p Reached (the functions that reverse-mode requests reach) into
/// memcpy.
void prepareKokkosCalls(llvm::Module &M,
                        llvm::ArrayRef<llvm::Function *> Reached);

} // namespace enzyme

#endif // ENZYME_PLUGIN_LIBRARYGRADIENTS_H
