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
/// Kokkos runtime functions that \p M calls, marks those without
/// derivatives `enzyme_inactive`, and turns the library's host copies
/// (declared, without bitcode) into memcpy with the element type of the
/// deep_copy they serve.
void prepareKokkosCalls(llvm::Module &M);

} // namespace enzyme

#endif // ENZYME_PLUGIN_LIBRARYGRADIENTS_H
