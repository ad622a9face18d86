// fdiv: d(x/y) = dx/y - x dy/y^2, and a reciprocal 1/x.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

typedef struct { double dx, dy; } grad2;
grad2 __enzyme_autodiff(void *, ...);

double f(double x, double y) { return x / y + 1.0 / x; }

int main(void) {
  double x = 1.6, y = -0.7;
  grad2 g = __enzyme_autodiff((void *)f, x, y);
  check_grad("d/dx", g.dx, 1 / y - 1 / (x * x), fd_diff2(f, x, y, 0));
  check_grad("d/dy", g.dy, -x / (y * y), fd_diff2(f, x, y, 1));
  return check_done();
}
