// Regression test: a sign put back with bit operations, as cuda_fp16.h's
// hsin does on the device and bit-twiddling libraries do on the host: the
// magnitude's bits or-ed with the sign bit of another value,
// `bits(|a|) | (bits(b) & SIGN)`, or flipped by it with an `xor`. Unoptimised code keeps the `or` of
// integers, which has no derivative of its own: the derivative was an
// error ("bits ... moved as integers with operations that split or mix
// them"), with the `or` of a float's absolute value a misleading one
// (about a struct returned packed in an integer by llvm.fabs). Now it is
// |a| negated where the `or` sets the sign, a negated where b is negative
// for the `xor` (Modes/FloatSignMasks.h). Central differences and analytic values, -O0
// and -O2, reverse and forward mode, at points of each sign.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// UndefinedBehaviorSanitizer compares the locals with null before each
// memcpy, which kept them in memory, where the bits lost their derivative
// without a word (Modes/PreparedFunction.cpp folds the comparisons first):
// RUN: %clang_enzyme -fenzyme -O0 -fsanitize=undefined -fno-sanitize-recover=all %s -o %t -lm && %t
#include "Inputs/check.h"

#include <stdint.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

static float withSignOf(float magnitude, float sign) {
  uint32_t m, s;
  memcpy(&m, &magnitude, sizeof m);
  memcpy(&s, &sign, sizeof s);
  m = (m & 0x7fffffffu) | (s & 0x80000000u);
  float r;
  memcpy(&r, &m, sizeof r);
  return r;
}

static double withSignOfD(double magnitude, double sign) {
  uint64_t m, s;
  memcpy(&m, &magnitude, sizeof m);
  memcpy(&s, &sign, sizeof s);
  m = (m & 0x7fffffffffffffffull) | (s & 0x8000000000000000ull);
  double r;
  memcpy(&r, &m, sizeof r);
  return r;
}

// v negated where s is negative: v * sgn(s).
static double flippedBySignOf(double v, double s) {
  uint64_t m, t;
  memcpy(&m, &v, sizeof m);
  memcpy(&t, &s, sizeof t);
  m ^= t & 0x8000000000000000ull;
  double r;
  memcpy(&r, &m, sizeof r);
  return r;
}

int enzyme_const;

// f(x, y) = x^2 copysign(x + 0.5, y) + copysign(x y, x) + x^3 sgn(y).
__attribute__((noinline)) double f(double x, double y) {
  return x * x * withSignOfD(x + 0.5, y) + withSignOfD(x * y, x) +
         flippedBySignOf(x * x * x, y);
}

// The same in float: g(x, y) = x copysign(x, y).
__attribute__((noinline)) double g(double x, double y) {
  return x * withSignOf((float)x, (float)y);
}

static double sgn(double v) { return v < 0 ? -1 : 1; }

static double dfdx(double x, double y) {
  return 2 * x * copysign(x + 0.5, y) + x * x * sgn(x + 0.5) * sgn(y) +
         y * sgn(x * y) * sgn(x) + 3 * x * x * sgn(y);
}

static double dfdy(double x, double y) { return x * sgn(x * y) * sgn(x); }

int main(void) {
  const double points[][2] = {
      {0.7, 1.3}, {0.7, -1.3}, {-1.4, 0.9}, {-1.4, -0.6}, {-0.2, 2.0}};
  for (unsigned i = 0; i < sizeof points / sizeof *points; ++i) {
    double x = points[i][0], y = points[i][1];
    check_grad_at("df/dx", x, __enzyme_autodiff((void *)f, x, enzyme_const, y),
                  dfdx(x, y), fd_diff2(f, x, y, 0));
    check_grad_at("df/dy", y, __enzyme_autodiff((void *)f, enzyme_const, x, y),
                  dfdy(x, y), fd_diff2(f, x, y, 1));
    check_close("forward df/dx", __enzyme_fwddiff((void *)f, x, 1.0, enzyme_const, y),
                dfdx(x, y), RTOL_EXACT, ATOL_EXACT);
    // 2 x sgn(x) sgn(y), up to x's rounding to float.
    check_close("dg/dx", __enzyme_autodiff((void *)g, x, enzyme_const, y),
                2 * x * sgn(x) * sgn(y), 1e-6, 1e-7);
    check_close("dg/dy", __enzyme_autodiff((void *)g, enzyme_const, x, y), 0,
                0, 0);
  }
  return check_done();
}
