//===- OpenMPRuntime.h - What clang's OpenMP code calls ---------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Clang lowers OpenMP directives to calls into LLVM's OpenMP runtime
/// (libomp): a parallel region is an outlined function that
/// `__kmpc_fork_call` runs on every thread of a team, a worksharing loop asks
/// `__kmpc_for_static_init_*` or `__kmpc_dispatch_next_*` for its
/// iterations, a reduction combines private copies between
/// `__kmpc_reduce*` and `__kmpc_end_reduce*`. The engine knows these calls:
///
///  - scheduling, thread queries and `single`/`master` are inactive: the
///    augmented pass runs them, the reverse pass reads what they returned;
///  - barriers, critical sections and OpenMP locks are mirrored in the
///    reverse pass (a barrier is a barrier again; a critical section's end
///    is where its reverse enters it), so that the reverse pass of each
///    thread sees the adjoints that others wrote where the forward pass saw
///    their values. Critical sections and locks are entered through the
///    run-time (runtime/OpenMPRegions.c), which makes the reverse entries
///    come in the reverse order of the forward ones: a combine such as
///    `m = max(m, mine)` gives its adjoint to whoever held the maximum when
///    it ran;
///  - a fork becomes a call of a region function (below) that the
///    generators differentiate as a whole (Modes/ParallelRegions.h);
///  - a reduction combines under a critical section, never with the
///    runtime's tree (whose combining calls the engine cannot see);
///  - a float the region takes by copy (`firstprivate`), which the runtime
///    passes as an integer of its bits, goes through a typed slot instead
///    (a copy of the outlined function reads it there), so that its
///    derivative flows; bits the engine cannot follow are an error.
///
/// Anything else of the runtime (tasks, `ordered`, teams, `if` on a
/// region) is a located error naming the call.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CORE_OPENMPRUNTIME_H
#define ENZYME_CORE_OPENMPRUNTIME_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"

#include <string>

namespace enzyme {

/// A call of the OpenMP runtime that carries no derivative and needs nothing
/// in the reverse pass beyond what it returned (scheduling, thread queries,
/// `single`, `master`, flushes), or a barrier or critical section, which
/// the reverse pass mirrors.
bool isInactiveOpenMPCall(const llvm::CallBase &Call);

/// \p Call is a barrier or enters or leaves a critical section.
bool isOpenMPSynchronization(const llvm::CallBase &Call);

/// An `ident_t` for runtime calls the engine adds without a source
/// location of the program's.
llvm::Constant *emitUnknownOpenMPLocation(llvm::Module &M);

/// A barrier of the current team, at source location \p Loc (an
/// `ident_t`).
void emitTeamBarrier(llvm::IRBuilder<> &B, llvm::Value *Loc);

/// The mirror of \p Sync in a reverse pass: the same barrier, or the other
/// end of the critical section, in the calling thread.
void emitMirroredOpenMPSynchronization(
    llvm::IRBuilder<> &B, const llvm::CallBase &Sync,
    llvm::function_ref<llvm::Value *(llvm::Value *)> Primal);

/// Why a call of the OpenMP runtime cannot be differentiated (tasks,
/// `ordered`, a region with an `if` clause...), or empty if \p Call is none
/// of the runtime's or one the engine knows.
std::string describeUnsupportedOpenMPCall(const llvm::CallBase &Call);

/// Rewrites the OpenMP runtime calls of \p F, a private copy being prepared
/// for differentiation: each `__kmpc_fork_call` of an outlined function
/// becomes a call of that function's region function, critical sections and
/// locks are entered through the run-time, and each reduction combines
/// under a critical section.
void lowerOpenMPRuntimeCalls(llvm::Function &F);

/// In \p F, a private copy of an outlined body after promotion to SSA: the
/// loads of a shared variable that only the region reaches (a local of the
/// forking function whose address goes nowhere else) and that nothing in
/// the body writes become one load at the entry.
void hoistInvariantSharedLoads(llvm::Function &F);

/// \p A, a parameter of an outlined body, points to a local of the forking
/// function that only the region reaches (its address went nowhere else).
bool isRegionLocal(const llvm::Argument &A);

/// \p F is a region function: `void F(args...)` forks a team that runs
/// `outlined(&gtid, &btid, args...)` (its body is that fork).
bool isParallelRegion(const llvm::Function &F);

/// A value region function \p Region takes by copy carries floating-point
/// bits in a form the engine does not follow (its derivative would be lost).
bool takesUnfollowedFloatBits(const llvm::Function &Region);

/// The outlined function that region function \p Region forks.
llvm::Function &outlinedFunctionOf(const llvm::Function &Region);

/// The source location (a `struct ident_t`) of \p Region's fork.
llvm::Value *forkLocationOf(const llvm::Function &Region);

/// `__kmpc_fork_call(Loc, n, Microtask, Args...)`, emitted with \p B.
llvm::CallInst *emitFork(llvm::IRBuilder<> &B, llvm::Value *Loc,
                         llvm::Function *Microtask,
                         llvm::ArrayRef<llvm::Value *> Args);

} // namespace enzyme

#endif // ENZYME_CORE_OPENMPRUNTIME_H
