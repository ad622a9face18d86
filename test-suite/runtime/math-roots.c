// sqrt and cbrt (cbrt also of negative numbers).
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

/* Gradient of a unary function fn at x, checked against the analytic
 * derivative d and a central finite difference. */
#define CHECK_UNARY(fn, x, d)                                                  \
  check_grad_at(#fn, x, __enzyme_autodiff((void *)f_##fn, x), d, fd_diff1(f_##fn, x))

static double f_sqrt(double x) { return sqrt(x); }
static double f_cbrt(double x) { return cbrt(x); }

int main(void) {
  const double xs[3] = {0.3, 2.5, 64.0};
  for (int i = 0; i < 3; i++) {
    double x = xs[i];
    CHECK_UNARY(sqrt, x, 0.5 / sqrt(x));
    CHECK_UNARY(cbrt, x, 1 / (3 * cbrt(x) * cbrt(x)));
    CHECK_UNARY(cbrt, -x, 1 / (3 * cbrt(-x) * cbrt(-x)));
  }
  return check_done();
}
