// log, log2, log10, log1p.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

/* Gradient of a unary function fn at x, checked against the analytic
 * derivative d and a central finite difference. */
#define CHECK_UNARY(fn, x, d)                                                  \
  check_grad_at(#fn, x, __enzyme_autodiff((void *)f_##fn, x), d, fd_diff1(f_##fn, x))

static double f_log(double x) { return log(x); }
static double f_log2(double x) { return log2(x); }
static double f_log10(double x) { return log10(x); }
static double f_log1p(double x) { return log1p(x); }

int main(void) {
  const double xs[3] = {0.3, 2.5, 17.0};
  for (int i = 0; i < 3; i++) {
    double x = xs[i];
    CHECK_UNARY(log, x, 1 / x);
    CHECK_UNARY(log2, x, 1 / (x * log(2.0)));
    CHECK_UNARY(log10, x, 1 / (x * log(10.0)));
    CHECK_UNARY(log1p, x, 1 / (1 + x));
  }
  CHECK_UNARY(log1p, -0.5, 1 / (1 - 0.5));
  return check_done();
}
