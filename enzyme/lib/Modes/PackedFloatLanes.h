//===- PackedFloatLanes.h - Structs the ABI packs into integers -*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Part of preparing a function for differentiation. x86-64 passes and
/// returns a struct that mixes a float and an integer in one eightbyte
/// (`struct { float value; int count; }`) in one integer register: the
/// caller assembles an `i64` from the float's bits and the integer, and the
/// callee takes the float back out. Derivatives flow through floating-point
/// values only, so such a call is made to a copy of the callee that takes
/// (or returns) the eightbyte as two 32-bit lanes, the float ones as
/// floats; the copy assembles the integer itself, and folding the lane
/// extractions of assembled integers then hands the floats through.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_PACKEDFLOATLANES_H
#define ENZYME_MODES_PACKEDFLOATLANES_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class Function;
class FunctionType;
} // namespace llvm

namespace enzyme {

/// The functions a call through a pointer of a type may reach
/// (IndirectCalls.h's possibleCallTargets); none when they are not known
/// yet (before the link).
using PossibleTargetsFn =
    llvm::function_ref<llvm::SmallVector<llvm::Function *, 4>(
        llvm::FunctionType *)>;

/// Replaces each extraction of a 32-bit lane from an integer that \p F
/// assembles with shifts, masks and extensions (`trunc (lshr %packed, 32)`)
/// by the value the lane was assembled from, and `bitcast (bitcast float
/// %x to i32) to float` by %x. A store of such an i64 with a float lane
/// stores its lanes, the floats as floats, and a float lane read out of a
/// loaded i64 is loaded as a float (the same bytes). True if something
/// changed.
bool foldAssembledLanes(llvm::Function &F);

/// Makes each direct call in \p F that passes a float lane assembled into
/// an `i64`, or reads a float lane out of an `i64` it returns, a call of
/// the callee's copy that takes and returns those eightbytes as lanes
/// (created once per callee and lane layout). Callees with a user's mark or
/// registration, declarations and CUDA launch stubs are left as they are.
/// Such a call through a pointer becomes a choice among \p PossibleTargets
/// (if given), each called through its copy, when every target can have
/// one; another pointer traps. True if something changed.
bool unpackFloatLanesAtCalls(llvm::Function &F,
                             PossibleTargetsFn PossibleTargets = nullptr);

} // namespace enzyme

#endif // ENZYME_MODES_PACKEDFLOATLANES_H
