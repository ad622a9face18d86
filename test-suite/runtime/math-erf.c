// erf and erfc: d erf = 2/sqrt(pi) exp(-x^2).
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

/* Gradient of a unary function fn at x, checked against the analytic
 * derivative d and a central finite difference. */
#define CHECK_UNARY(fn, x, d)                                                  \
  check_grad_at(#fn, x, __enzyme_autodiff((void *)f_##fn, x), d, fd_diff1(f_##fn, x))

static double f_erf(double x) { return erf(x); }
static double f_erfc(double x) { return erfc(x); }

int main(void) {
  const double xs[3] = {0.3, -1.1, 2.0};
  for (int i = 0; i < 3; i++) {
    double x = xs[i];
    double d = 2 / sqrt(acos(-1.0)) * exp(-x * x);
    CHECK_UNARY(erf, x, d);
    CHECK_UNARY(erfc, x, -d);
  }
  return check_done();
}
