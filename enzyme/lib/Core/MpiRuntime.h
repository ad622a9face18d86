//===- MpiRuntime.h - What MPI programs call --------------------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// MPI calls have no definition in the program: the library is OpenMPI's.
/// The engine knows them:
///
///  - queries (rank, size), setup and timing carry no derivative;
///  - `MPI_Barrier` is mirrored in the reverse pass;
///  - point-to-point messages (`MPI_Send`, `MPI_Recv`, `MPI_Isend`,
///    `MPI_Irecv` with `MPI_Wait`/`MPI_Waitall`) and the collectives
///    `MPI_Bcast`, `MPI_Reduce`, `MPI_Allreduce` (sum, max, min),
///    `MPI_Gather`, `MPI_Scatter`, `MPI_Allgather` get custom gradients from
///    the run-time (runtime/MpiRules.c): a message's adjoint travels the
///    other way (a send's reverse receives), a broadcast's reverse sums onto
///    the root, a sum's reverse broadcasts;
///  - anything else (one-sided communication, user-defined operators,
///    derived datatypes) that carries derivatives is a located error.
///
/// The rules are built against OpenMPI's ABI (Debian's libopenmpi-dev),
/// whose handles are addresses of predefined objects (`&ompi_mpi_double`).
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CORE_MPIRUNTIME_H
#define ENZYME_CORE_MPIRUNTIME_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"

#include <string>

namespace enzyme {

/// On a function whose reverse-mode rule must run wherever it is called,
/// whatever its arguments carry: it moves derivatives through state of its
/// own (`MPI_Wait` completes a message whose adjoint its reverse starts).
inline constexpr const char *CarriesHiddenDerivatives =
    "enzyme-hidden-derivatives";

/// The toolchain was built with OpenMPI's headers: the run-time has its
/// MPI rules.
bool haveMpiRules();

/// An MPI call that carries no derivative (queries, setup, timing), or
/// `MPI_Barrier`, which the reverse pass mirrors.
bool isInactiveMpiCall(const llvm::CallBase &Call);

/// \p Call is `MPI_Barrier(comm)`.
bool isMpiBarrier(const llvm::CallBase &Call);

/// The barrier again, in the reverse pass.
void emitMirroredMpiBarrier(
    llvm::IRBuilder<> &B, const llvm::CallBase &Barrier,
    llvm::function_ref<llvm::Value *(llvm::Value *)> Primal);

/// The prefix of the run-time functions (`<prefix>_augment`,
/// `<prefix>_reverse`) that differentiate calls of the MPI function
/// \p Name, or empty.
llvm::StringRef mpiGradientPrefix(llvm::StringRef Name);

/// Why an MPI call that carries derivatives cannot be differentiated (a
/// function without a rule, a reduction operator other than sum, max and
/// min, a datatype other than the predefined ones), or empty.
std::string describeUnsupportedMpiCall(const llvm::CallBase &Call);

} // namespace enzyme

#endif // ENZYME_CORE_MPIRUNTIME_H
