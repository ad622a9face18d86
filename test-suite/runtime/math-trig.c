// sin, cos, tan.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

/* Gradient of a unary function fn at x, checked against the analytic
 * derivative d and a central finite difference. */
#define CHECK_UNARY(fn, x, d)                                                  \
  check_grad_at(#fn, x, __enzyme_autodiff((void *)f_##fn, x), d, fd_diff1(f_##fn, x))

static double f_sin(double x) { return sin(x); }
static double f_cos(double x) { return cos(x); }
static double f_tan(double x) { return tan(x); }

int main(void) {
  const double xs[3] = {0.3, -1.1, 2.5};
  for (int i = 0; i < 3; i++) {
    double x = xs[i];
    CHECK_UNARY(sin, x, cos(x));
    CHECK_UNARY(cos, x, -sin(x));
    CHECK_UNARY(tan, x, 1 / (cos(x) * cos(x)));
  }
  return check_done();
}
