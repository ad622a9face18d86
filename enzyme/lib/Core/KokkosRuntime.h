//===- KokkosRuntime.h - What Kokkos programs call --------------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Kokkos is a header library around a small runtime: code that uses it
/// inlines parallel_for, parallel_reduce and View accesses, and calls into
/// the library (Debian's shared libkokkoscore, or one built with the
/// toolchain) for the rest. The engine knows those calls:
///
///  - profiling hooks (`Kokkos::Tools`, `Kokkos::Profiling`), fences,
///    queries, the host-space object, labels, the per-thread scratch that a
///    reduction's team data lives in, and errors carry no derivative;
///  - the allocation records that count a View's references get custom
///    gradients from the run-time (runtime/KokkosRules.c), and their
///    constructors run on the shadow too: a View the differentiated code
///    allocates gets a shadow View whose record is counted in step and
///    freed after the reverse pass;
///  - `hostspace_parallel_deepcopy`, what `deep_copy` of host Views calls,
///    is a memcpy to the engine.
///
/// Names are matched demangled, so that the rules serve Kokkos 3.4 and 4.x
/// alike.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CORE_KOKKOSRUNTIME_H
#define ENZYME_CORE_KOKKOSRUNTIME_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class CallBase;
class Function;
} // namespace llvm

namespace enzyme {

/// A call into Kokkos' runtime that carries no derivative.
bool isInactiveKokkosCall(const llvm::CallBase &Call);
/// \p F (null for an indirect call) is such a function.
bool isInactiveKokkosFunction(const llvm::Function *F);

/// \p F runs a Kokkos construct the engine does not differentiate
/// (`parallel_scan`): kept as a call, so that describeUnsupportedKokkosCall
/// names it where the program differentiates through it.
bool isUnsupportedKokkosConstruct(const llvm::Function &F);

/// How a Kokkos host backend splits a range's iterations among the team:
/// each thread calls `HostThreadTeamData::set_work_partition(data, length,
/// chunk)` on its own team data, then `get_work_partition(data)`, which
/// returns its part `{first, second}` of `[0, length)`. With the same length
/// and chunk in every thread, the parts are disjoint. Both only touch the
/// thread's team data.
enum class KokkosPartitionCall { None, Set, Get };
KokkosPartitionCall kokkosWorkPartitionCall(const llvm::CallBase &Call);

/// \p Call is a member of an execution space's handle (`Kokkos::OpenMP`,
/// `HostSharedPtr`): it keeps no address it is given (a closure object
/// holding the handle stays the region's alone).
bool kokkosCallKeepsNoAddress(const llvm::CallBase &Call);

/// The prefix of the run-time functions (`<prefix>_augment`,
/// `<prefix>_reverse`, `<prefix>_forward`) that differentiate calls of the
/// Kokkos function \p MangledName, or empty.
llvm::StringRef kokkosRulePrefix(llvm::StringRef MangledName);

/// \p F constructs the allocation record of a View in HostSpace (any of
/// the constructors of Kokkos 3.4 and 4.x): run on the shadow too, it makes
/// the shadow View's memory (Plugin/LibraryGradients.h).
bool isKokkosHostRecordConstructor(const llvm::Function &F);

/// \p F is Kokkos' copy of host memory, `hostspace_parallel_deepcopy(dst,
/// src, bytes)`: a memcpy.
bool isKokkosHostCopy(const llvm::Function &F);

/// The element type of the Views that \p F, an instantiation of
/// `Kokkos::deep_copy<T*, ...>` (or DeepCopy's constructor, which only
/// such instantiations call), copies: "double" or "float"; empty for any
/// other function or type.
llvm::StringRef kokkosDeepCopyElement(const llvm::Function &F);

/// Why a call into Kokkos that carries derivatives cannot be
/// differentiated (an execution space without a rule), or empty.
std::string describeUnsupportedKokkosCall(const llvm::CallBase &Call);

} // namespace enzyme

#endif // ENZYME_CORE_KOKKOSRUNTIME_H
