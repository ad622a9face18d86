//===- FloatBitFields.h - A float's fields rewritten in its bits -*- C++
//-*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Part of preparing a function for differentiation. Math code scales a
/// float by writing a new exponent into its bits and keeping its mantissa:
/// `bits(x) & MANTISSA | (E << 52)`, as FreeBSD's msun and Thrust's complex
/// exponential (`set_high_word(exp_x, (hx & 0xfffff) | (E << 20))`) do to
/// keep an intermediate away from overflow. The result is x scaled by a
/// power of two that depends only on x's exponent, a derivative the bits
/// do not show (an error before). For a normal x it is
/// `ldexp(|x|, E - exponent(x))`; for zero and subnormal x, whose mantissa
/// gets an implicit leading one, `2^(E - bias) + ldexp(|x|, E - 1)`; for
/// infinities and NaN the payload read as a number, without a derivative.
/// All three are computed as floating-point operations and selected by x's
/// exponent, so that the value is the bits' exactly.
///
/// The same code splits a float into a head and a tail by clearing its low
/// mantissa bits, `bits(x) & ~0x7ffffffff` (Thrust's complex logarithm's
/// `trim`): the head is x truncated to fewer bits, piecewise constant, so
/// its derivative is 0 (the tail, x - head, carries x's). It becomes the
/// truncation of x scaled by a power of two, `llvm.trunc`, scaled back.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_FLOATBITFIELDS_H
#define ENZYME_MODES_FLOATBITFIELDS_H

namespace llvm {
class Function;
} // namespace llvm

namespace enzyme {

/// Rewrites each `or (and (bits x), M), C` of \p F, where M keeps x's
/// mantissa (and perhaps its sign) and C sets a normal exponent (and
/// perhaps the sign), and each `and (bits x), H`, where H keeps x's sign,
/// exponent and high mantissa bits, into floating-point operations of the
/// same value; true if something changed.
bool rewriteFloatBitFields(llvm::Function &F);

} // namespace enzyme

#endif // ENZYME_MODES_FLOATBITFIELDS_H
