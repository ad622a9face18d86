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
class Instruction;
class Module;
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

/// \p F runs one tile of a two-dimensional `MDRangePolicy` on a host
/// backend: `HostIterateTile<MDRangePolicy<..., Rank<2>, ...>,
/// ...>::operator()(tile)` (or its `operator_impl`). Kokkos splits the
/// policy's points into tiles numbered from 0 and visits each point of a
/// tile once, in two nested loops, as `offset + i0` and `offset + i1`: the
/// tiles of distinct numbers hold distinct points (Modes/KokkosTileLoops.h).
bool isKokkosRank2TileFunction(const llvm::Function &F);

/// \p F is `Tile_Loop_Type<2, ...>::apply`, the two loops over a tile's
/// points that a rank-2 tile function calls.
bool isKokkosRank2TileLoop(const llvm::Function &F);

/// Keeps the tile functions of two-dimensional MDRange policies in \p M
/// calls until the engine has run (noinline), where \p M runs OpenMP
/// regions: inlined, their points could no longer be told from the tile
/// (Modes/KokkosTileLoops.h). One call per tile costs the program nothing
/// it would notice.
void keepKokkosTilesCallable(llvm::Module &M);

/// Marks of an inlined tile call \p Id in a prepared copy
/// (Modes/KokkosTileLoops.h): `!enzyme.kokkos.tiles !{i32 Id}` on its tile
/// number, `!enzyme.kokkos.counter !{i32 Id, i32 Loop}` on the counter and
/// `!enzyme.kokkos.point !{i32 Id, i32 Loop}` on the points of its outer
/// (Loop 0) and inner (Loop 1) loop.
void markKokkosTile(llvm::Instruction &TileNumber, unsigned Id);
void markKokkosTileCounter(llvm::Instruction &Counter, unsigned Id,
                           unsigned Loop);
void markKokkosTilePoint(llvm::Instruction &Point, unsigned Id, unsigned Loop);
/// The inlined call \p I is a marked tile number of, or -1.
int kokkosTileOf(const llvm::Instruction &I);
/// The inlined call and loop \p I is a marked point of, or -1 for both.
struct KokkosTilePoint {
  int Tile = -1;
  int Loop = -1;
};
KokkosTilePoint kokkosTilePointOf(const llvm::Instruction &I);
KokkosTilePoint kokkosTileCounterOf(const llvm::Instruction &I);

/// Why a call into Kokkos that carries derivatives cannot be
/// differentiated (an execution space without a rule), or empty.
std::string describeUnsupportedKokkosCall(const llvm::CallBase &Call);

} // namespace enzyme

#endif // ENZYME_CORE_KOKKOSRUNTIME_H
