//===- ExclusiveReadGuards.h - Run-time checks for plain adjoints -*- C++
//-*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Some reads of a worksharing loop are exclusive (their adjoints need no
/// atomics: Analysis/ParallelLoopReads.h) only under conditions that alias
/// analysis and scalar evolution cannot decide: two arrays read at `[i]`
/// that may be one array, or an `int` index computed from a 64-bit
/// iteration number. The guard computes them in the region's body, once per
/// thread before the loop: the arrays' elements over the construct's whole
/// iteration space are the same element per iteration or do not meet, and
/// the construct has at most 2^bits iterations. The reverse pass adds
/// plainly where the guard holds and atomically elsewhere.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_EXCLUSIVEREADGUARDS_H
#define ENZYME_MODES_EXCLUSIVEREADGUARDS_H

#include "Analysis/ParallelLoopReads.h"

namespace llvm {
class AllocaInst;
class DominatorTree;
class ScalarEvolution;
class Value;
} // namespace llvm

namespace enzyme {

/// Emits, at the preheader of \p G's loop, the i1 under which \p G is
/// exclusive (\p All: every group of the body, which \p G's conditions
/// name by index); null where a value it needs is not available there.
llvm::Value *emitExclusiveReadGuard(const ReadGroup &G,
                                    llvm::ArrayRef<ReadGroup> All,
                                    llvm::ScalarEvolution &SE,
                                    llvm::DominatorTree &DT);

/// The attribute of a call the engine emits in a body that touches the
/// run-time's state only, never memory the program reads.
inline constexpr const char *RuntimeStateOnly = "enzyme_runtime_state_only";

/// Emits, before each read of \p G, the check of its point (TileReadGroup),
/// and records a failure in \p Failed: a flag of the body that it creates
/// on first use, with the call that reports it to the region's team
/// (`__enzyme_rt_omp_plain_adjoints_report`) before the body returns. False
/// where a value a check needs is not available at a read.
bool emitTilePointChecks(const TileReadGroup &G, llvm::ScalarEvolution &SE,
                         llvm::DominatorTree &DT, llvm::AllocaInst *&Failed);

} // namespace enzyme

#endif // ENZYME_MODES_EXCLUSIVEREADGUARDS_H
