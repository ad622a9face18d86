// Comparison results used as numbers carry no derivative.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

double f(double x) { return x * (x > 0.5) + (x * x >= 4.0) + (double)(x != x); }

int main(void) {
  const double xs[3] = {1.0, 0.2, 2.5};
  for (int i = 0; i < 3; i++) {
    double x = xs[i];
    check_grad("d/dx", __enzyme_autodiff((void *)f, x), x > 0.5 ? 1.0 : 0.0, fd_diff1(f, x));
  }
  return check_done();
}
