// sinh, cosh, tanh.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

/* Gradient of a unary function fn at x, checked against the analytic
 * derivative d and a central finite difference. */
#define CHECK_UNARY(fn, x, d)                                                  \
  check_grad_at(#fn, x, __enzyme_autodiff((void *)f_##fn, x), d, fd_diff1(f_##fn, x))

static double f_sinh(double x) { return sinh(x); }
static double f_cosh(double x) { return cosh(x); }
static double f_tanh(double x) { return tanh(x); }

int main(void) {
  const double xs[3] = {0.3, -1.1, 2.5};
  for (int i = 0; i < 3; i++) {
    double x = xs[i];
    CHECK_UNARY(sinh, x, cosh(x));
    CHECK_UNARY(cosh, x, sinh(x));
    CHECK_UNARY(tanh, x, 1 - tanh(x) * tanh(x));
  }
  return check_done();
}
