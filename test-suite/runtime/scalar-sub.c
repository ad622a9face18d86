// fsub: the subtrahend receives the negated adjoint.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

typedef struct { double dx, dy; } grad2;
grad2 __enzyme_autodiff(void *, ...);

double f(double x, double y) { return (x - y) - y - (0.5 - x); }

int main(void) {
  double x = 1.75, y = 0.5;
  grad2 g = __enzyme_autodiff((void *)f, x, y);
  check_grad("d/dx", g.dx, 2.0, fd_diff2(f, x, y, 0));
  check_grad("d/dy", g.dy, -2.0, fd_diff2(f, x, y, 1));
  return check_done();
}
