// sincos and sincosf (GNU), which write the sine and the cosine through
// pointers: before, a call with no derivative rule (an error). Now the
// engine's copy of the function stores the sine and the cosine computed by
// sin and cos (Modes/LibraryRewrites.h), whose rules it has. Reverse and
// forward mode against analytic values and central differences, -O0 and
// -O2.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#define _GNU_SOURCE
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

// s c + 3 s with s, c = sin, cos (x^2); and sin x cos x through sincosf
// (whose float rounding the analytic value does not see: a looser check).
double f(double x) {
  double s, c;
  sincos(x * x, &s, &c);
  return s * c + 3 * s;
}
double g(double x) {
  float s, c;
  sincosf((float)x, &s, &c);
  return (double)s * c;
}

int main(void) {
  for (double x = -1.3; x < 1.5; x += 0.45) {
    double y = x * x;
    double Want = 2 * x * (cos(y) * cos(y) - sin(y) * sin(y)) + 6 * x * cos(y);
    check_grad_at("sincos, reverse", x, __enzyme_autodiff((void *)f, x), Want,
                  fd_diff1(f, x));
    check_grad_at("sincos, forward", x, __enzyme_fwddiff((void *)f, x, 1.0),
                  Want, fd_diff1(f, x));
    check_close("sincosf, reverse", __enzyme_autodiff((void *)g, x),
                cos(2 * x), 1e-6, 1e-6);
    check_close("sincosf, forward", __enzyme_fwddiff((void *)g, x, 1.0),
                cos(2 * x), 1e-6, 1e-6);
  }
  return check_done();
}
