// exp, exp2, expm1.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

/* Gradient of a unary function fn at x, checked against the analytic
 * derivative d and a central finite difference. */
#define CHECK_UNARY(fn, x, d)                                                  \
  check_grad_at(#fn, x, __enzyme_autodiff((void *)f_##fn, x), d, fd_diff1(f_##fn, x))

static double f_exp(double x) { return exp(x); }
static double f_exp2(double x) { return exp2(x); }
static double f_expm1(double x) { return expm1(x); }

int main(void) {
  const double xs[4] = {0.3, -1.1, 2.5, 1e-3};
  for (int i = 0; i < 4; i++) {
    double x = xs[i];
    CHECK_UNARY(exp, x, exp(x));
    CHECK_UNARY(exp2, x, log(2.0) * exp2(x));
    CHECK_UNARY(expm1, x, exp(x));
  }
  return check_done();
}
