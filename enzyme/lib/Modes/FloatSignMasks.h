//===- FloatSignMasks.h - Sign-bit masks on float bits ------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Part of preparing a function for differentiation. SIMD code takes the
/// absolute value or the negation of floats with a bitwise operation on
/// their bits: Eigen's `pabs` is `_mm_and_pd(a, mask)` with every bit but
/// the sign set, and its `pnegate` `_mm_xor_pd(a, sign)`. Optimised code
/// gets `llvm.fabs` and `fneg` from InstCombine; unoptimised code keeps an
/// `and`/`xor`/`or` of the floats' bits, which has no derivative of its
/// own. These operations become the floating-point ones they are.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_FLOATSIGNMASKS_H
#define ENZYME_MODES_FLOATSIGNMASKS_H

namespace llvm {
class Function;
} // namespace llvm

namespace enzyme {

/// Rewrites `and`, `xor` and `or` of the bits of floats (a bitcast of a
/// float or float vector) with a constant that clears, flips or sets
/// exactly the sign bit of every element into `llvm.fabs`, `fneg` and
/// `fneg (llvm.fabs)`, cast back to the integer type; true if something
/// changed.
bool foldFloatSignMasks(llvm::Function &F);

} // namespace enzyme

#endif // ENZYME_MODES_FLOATSIGNMASKS_H
