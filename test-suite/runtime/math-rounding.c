// floor, ceil, round, trunc have derivative 0: d(floor(x) * x) = floor(x).
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

/* Gradient of a unary function fn at x, checked against the analytic
 * derivative d and a central finite difference. */
#define CHECK_UNARY(fn, x, d)                                                  \
  check_grad_at(#fn, x, __enzyme_autodiff((void *)f_##fn, x), d, fd_diff1(f_##fn, x))

static double f_floor(double x) { return floor(x) * x; }
static double f_ceil(double x) { return ceil(x) * x; }
static double f_round(double x) { return round(x) * x; }
static double f_trunc(double x) { return trunc(x) * x; }
static double f_floor_alone(double x) { return floor(x); }

int main(void) {
  const double xs[3] = {2.3, -1.7, 0.6};
  for (int i = 0; i < 3; i++) {
    double x = xs[i];
    CHECK_UNARY(floor, x, floor(x));
    CHECK_UNARY(ceil, x, ceil(x));
    CHECK_UNARY(round, x, round(x));
    CHECK_UNARY(trunc, x, trunc(x));
    CHECK_UNARY(floor_alone, x, 0.0);
  }
  return check_done();
}
