// fabs: the sign of the argument; also |x|*x.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

/* Gradient of a unary function fn at x, checked against the analytic
 * derivative d and a central finite difference. */
#define CHECK_UNARY(fn, x, d)                                                  \
  check_grad_at(#fn, x, __enzyme_autodiff((void *)f_##fn, x), d, fd_diff1(f_##fn, x))

static double f_fabs(double x) { return fabs(x); }
static double f_fabs_times_x(double x) { return fabs(x) * x; }

int main(void) {
  const double xs[3] = {-2.5, 1.5, -0.1};
  for (int i = 0; i < 3; i++) {
    double x = xs[i];
    CHECK_UNARY(fabs, x, x > 0 ? 1.0 : -1.0);
    CHECK_UNARY(fabs_times_x, x, 2 * fabs(x));
  }
  return check_done();
}
