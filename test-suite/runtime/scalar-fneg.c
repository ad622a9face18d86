// fneg: the adjoint is negated.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

double f(double x) { return -(x * x) + -x; }

int main(void) {
  for (double x = -2.0; x <= 2.0; x += 1.5)
    check_grad("d/dx -(x^2)-x", __enzyme_autodiff((void *)f, x), -2 * x - 1, fd_diff1(f, x));
  return check_done();
}
