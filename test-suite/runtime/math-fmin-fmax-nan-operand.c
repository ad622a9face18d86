// fmin and fmax ignore a NaN operand and return the other one, so the
// other one gets the whole adjoint. The rule used to send it to the NaN
// side because `x > NaN` is false (C fuzzer seed 5443:
// fmax(tgamma(..), sqrt(negative)) had a zero derivative).
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_out, enzyme_const;
double __enzyme_autodiff(void *, ...);

/* y is NaN for every x here: the result is 3 x^2 (fmax) or 2 x (fmin). */
double max_with_nan(double x, double nan) { return fmax(x * x * x, nan); }
double min_with_nan(double nan, double x) { return fmin(nan, x * x); }

int main(void) {
  double x = 0.75, nan = sqrt(-1.0 + 0.0 * x);
  double d = __enzyme_autodiff((void *)max_with_nan, enzyme_out, x,
                               enzyme_const, nan);
  check_close("d/dx fmax(x^3, NaN)", d, 3 * x * x, RTOL_EXACT, ATOL_EXACT);
  d = __enzyme_autodiff((void *)min_with_nan, enzyme_const, nan, enzyme_out,
                        x);
  check_close("d/dx fmin(NaN, x^2)", d, 2 * x, RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
