//===- ParallelRegions.h - Derivatives of OpenMP regions --------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// An OpenMP parallel region reaches the generators as a call of its region
/// function (Core/OpenMPRuntime.h), `void R(args...)`, which forks a team
/// running the outlined body `B(&gtid, &btid, args...)`. Its derivatives
/// run in parallel too:
///
///  - forward mode: R's tangent forks a team running B's tangent, with the
///    shadows after the arguments (a tangent function has the runtime's
///    calling convention already);
///  - reverse mode: B's pair is generated with the `Parallel` signature
///    flag (adjoints of shared memory are added atomically, SharedAdjoints.h)
///    and thread ids without derivatives. R's augmented function forks a
///    team whose threads run B's augmented function with a tape each, kept
///    in a region record (runtime/OpenMPRegions.c) that R's caller records;
///    R's reverse function forks a team of the same size whose thread T
///    runs B's reverse function on thread T's tape, so that each thread
///    reverses the iterations it ran, and barriers and critical sections
///    are mirrored among the same threads.
///
/// The runtime passes a region's arguments as pointer-sized words: a
/// region function has only pointers and pointer-sized integers, and
/// vector modes (whose shadows are arrays) stop with an error.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_PARALLELREGIONS_H
#define ENZYME_MODES_PARALLELREGIONS_H

#include "Core/Activity.h"

#include <string>

namespace llvm {
class Function;
} // namespace llvm

namespace enzyme {

/// Why region function \p Region cannot be differentiated with \p Width
/// directions and the context shadows \p ContextShadows asks for, or
/// empty.
std::string describeUnsupportedRegion(const llvm::Function &Region,
                                      unsigned Width, bool ContextShadows);

/// The activities of the outlined body for region activities \p Args: the
/// two thread-id pointers carry no derivative.
llvm::SmallVector<Activity, 4> bodyActivities(llvm::ArrayRef<Activity> Args);

} // namespace enzyme

#endif // ENZYME_MODES_PARALLELREGIONS_H
