// Regression test: float fields rewritten in the bits, as FreeBSD's msun
// and Thrust's complex functions do. A new exponent written over a
// double's (`bits & MANTISSA | E << 52`) scales it by a power of two that
// depends only on its exponent; clearing the low mantissa bits
// (`bits & ~0x3fffffff`) truncates it to a head whose derivative is 0, the
// tail x - head carrying x's. Both were an error ("floats whose bits ...
// are moved as integers with operations that split or mix them"). Now they
// are the floating-point operations of the same value
// (Modes/FloatBitFields.h): ldexp for the scaling, a truncation for the
// head. Analytic values and central differences, -O0 and -O2, reverse and
// forward mode; normal, subnormal and zero inputs.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

#include <float.h>
#include <stdint.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

// As msun's EXTRACT_WORDS and INSERT_WORDS: in the function itself (a
// helper that returned the bits would be an error at -O0, where it stays a
// call: diagnostics/float-bits-returned-as-integer.c).
#define BITS_OF(b, x) memcpy(&(b), &(x), sizeof(b))
#define FROM_BITS(x, b) memcpy(&(x), &(b), sizeof(x))

// |x| with its exponent replaced by 2^4: |x| 2^(4 - e(x)), in [16, 32).
__attribute__((noinline)) double normalised(double x) {
  uint64_t b;
  BITS_OF(b, x);
  b = (b & 0x000fffffffffffffull) | (1027ull << 52);
  double r;
  FROM_BITS(r, b);
  return r;
}

// x keeping its sign and 20 mantissa bits.
__attribute__((noinline)) double head(double x) {
  uint64_t b;
  BITS_OF(b, x);
  b &= 0xfffffffff0000000ull;
  double r;
  FROM_BITS(r, b);
  return r;
}

// |x| with the exponent of 2^-1013: at zero and subnormals, 2^-1013 +
// |x| 2^9 (an implicit leading one under the new exponent).
__attribute__((noinline)) double normalisedLow(double x) {
  uint64_t b;
  BITS_OF(b, x);
  b = (b & 0x000fffffffffffffull) | (10ull << 52);
  double r;
  FROM_BITS(r, b);
  return r;
}

// The derivatives of these are the values the engine's copies compute for
// head(x) and normalisedLow(x), which must be the bits' exactly.
__attribute__((noinline)) double headTimes(double x) { return head(x) * x; }
__attribute__((noinline)) double normalisedLowTimes(double x, double y) {
  return normalisedLow(x) * y;
}

int enzyme_const;

// x^2 as head^2 + 2 head tail + tail^2, the split of extra-precise code.
__attribute__((noinline)) double square(double x) {
  double h = head(x), t = x - h;
  return h * h + 2 * h * t + t * t;
}

// 3 normalised(x) + x: derivative 3 sgn(x) 2^(4 - e(x)) + 1.
__attribute__((noinline)) double scaled(double x) {
  return 3 * normalised(x) + x;
}

int main(void) {
  const double points[] = {0.7, -1.3, 2.5, 1000.25, -3.7e-5};
  for (unsigned i = 0; i < sizeof points / sizeof *points; ++i) {
    double x = points[i];
    double scale = normalised(x) / fabs(x);
    check_grad_at("d scaled/dx", x, __enzyme_autodiff((void *)scaled, x),
                  3 * scale * (x < 0 ? -1 : 1) + 1, fd_diff1(scaled, x));
    check_close("forward d scaled/dx", __enzyme_fwddiff((void *)scaled, x, 1.0),
                3 * scale * (x < 0 ? -1 : 1) + 1, RTOL_EXACT, ATOL_EXACT);
    check_grad_at("d square/dx", x, __enzyme_autodiff((void *)square, x),
                  2 * x, fd_diff1(square, x));
    check_close("d head/dx", __enzyme_autodiff((void *)head, x), 0, 0, 0);
    // d (head(x) x)/dx = head(x): the engine's head is the bits'.
    check_close("head in the derivative", __enzyme_autodiff((void *)headTimes, x),
                head(x), 0, 0);
  }
  // Zero and subnormals: the derivative is 2^9 (times the sign).
  const double tiny[] = {0.0, 3 * DBL_TRUE_MIN, -5e-310};
  for (unsigned i = 0; i < sizeof tiny / sizeof *tiny; ++i) {
    double x = tiny[i];
    check_close("normalisedLow in the derivative at a subnormal",
                __enzyme_autodiff((void *)normalisedLowTimes, enzyme_const, x,
                                  1.0),
                normalisedLow(x), 0, 0);
    check_close("d normalisedLow/dx at a subnormal",
                __enzyme_autodiff((void *)normalisedLow, x),
                signbit(x) ? -512.0 : 512.0, RTOL_EXACT, 0);
  }
  return check_done();
}
