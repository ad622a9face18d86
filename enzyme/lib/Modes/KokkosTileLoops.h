//===- KokkosTileLoops.h - The points of a Kokkos MDRange tile --*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Kokkos runs a two-dimensional `MDRangePolicy` on a host backend as a
/// loop over tile numbers (on OpenMP, a worksharing loop) that calls
/// `HostIterateTile::operator()(tile)`, a function the optimiser keeps
/// apart. It visits each point of the tile once, in two nested loops, as
/// `offset + i0` and `offset + i1`; tiles of distinct numbers hold distinct
/// points (Core/KokkosRuntime.h). What the functor reads at a point is read
/// at that point only, which the reverse of an OpenMP region can use to add
/// adjoints without atomics (Analysis/ParallelLoopReads.h), but only if it
/// sees the reads beside the worksharing loop and knows the points.
///
/// In a prepared copy, this inlines such calls and marks, with metadata
/// that names the inlined call (Core/KokkosRuntime.h), the tile number and
/// the counters of the two loops; once the copy is in SSA form (the tile's
/// offsets out of memory), the points of each counter. A tile whose loops
/// are not the two counting loops this expects is inlined unmarked.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_KOKKOSTILELOOPS_H
#define ENZYME_MODES_KOKKOSTILELOOPS_H

namespace llvm {
class Function;
} // namespace llvm

namespace enzyme {

/// Inlines the calls of \p F to the tile functions of two-dimensional
/// MDRange policies whose tile number is an instruction, marking their
/// tile numbers and counters.
void inlineKokkosTiles(llvm::Function &F);

/// Marks the points of the marked counters of \p F: `counter + offset`,
/// the offset computed before the tile's loops.
void markKokkosTilePoints(llvm::Function &F);

} // namespace enzyme

#endif // ENZYME_MODES_KOKKOSTILELOOPS_H
