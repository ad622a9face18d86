// fmul: each operand receives the adjoint times the other operand, including
// when the same value is both operands.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

typedef struct { double dx, dy; } grad2;
grad2 __enzyme_autodiff(void *, ...);

double f(double x, double y) { return x * y * x * 2.5; }

int main(void) {
  double x = -1.3, y = 0.8;
  grad2 g = __enzyme_autodiff((void *)f, x, y);
  check_grad("d/dx", g.dx, 5.0 * x * y, fd_diff2(f, x, y, 0));
  check_grad("d/dy", g.dy, 2.5 * x * x, fd_diff2(f, x, y, 1));
  return check_done();
}
