// asin, acos, atan.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

/* Gradient of a unary function fn at x, checked against the analytic
 * derivative d and a central finite difference. */
#define CHECK_UNARY(fn, x, d)                                                  \
  check_grad_at(#fn, x, __enzyme_autodiff((void *)f_##fn, x), d, fd_diff1(f_##fn, x))

static double f_asin(double x) { return asin(x); }
static double f_acos(double x) { return acos(x); }
static double f_atan(double x) { return atan(x); }

int main(void) {
  const double xs[3] = {0.3, -0.75, 0.9};
  for (int i = 0; i < 3; i++) {
    double x = xs[i];
    CHECK_UNARY(asin, x, 1 / sqrt(1 - x * x));
    CHECK_UNARY(acos, x, -1 / sqrt(1 - x * x));
    CHECK_UNARY(atan, x, 1 / (1 + x * x));
  }
  CHECK_UNARY(atan, 4.0, 1 / (1 + 16.0));
  return check_done();
}
