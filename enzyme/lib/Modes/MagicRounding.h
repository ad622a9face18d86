//===- MagicRounding.h - Rounding by adding a large constant ----*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Part of preparing a function for differentiation. Math code rounds a
/// float to an integer by adding a constant so large that the float's ulp
/// there is 1 and subtracting it again: `(x * 2/pi + 0x1.8p23) - 0x1.8p23`
/// is x * 2/pi rounded to the nearest integer (the range reduction of
/// cuda_fp16.h's hsin and hcos, of many libm-style sin, cos and exp). The
/// result is piecewise constant, but its operations, read one by one, have
/// the derivative of x * 2/pi: the reduced argument x - j pi/2 would get a
/// derivative of 0 instead of 1, a silently wrong gradient. So the
/// difference is passed through `llvm.roundeven`, which leaves its value
/// (an integer already) alone and whose derivative is 0.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_MAGICROUNDING_H
#define ENZYME_MODES_MAGICROUNDING_H

namespace llvm {
class Function;
} // namespace llvm

namespace enzyme {

/// Marks each `(y + M) - M` of \p F (also `fma(a, b, M) - M`, where M is
/// 1.5 or 1 times 2^(mantissa bits) of the type: 0x1.8p23 for float,
/// 0x1.8p52 for double) as the rounding it is; true if something changed.
bool markMagicRounding(llvm::Function &F);

} // namespace enzyme

#endif // ENZYME_MODES_MAGICROUNDING_H
