// select (a conditional expression; a select instruction at -O2): only the
// chosen operand receives the adjoint.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

typedef struct { double dx, dy; } grad2;
grad2 __enzyme_autodiff(void *, ...);

double f(double x, double y) { return x > y ? x * x : 3.0 * y; }

int main(void) {
  const double pts[2][2] = {{2.0, 1.0}, {0.5, 1.5}};
  for (int i = 0; i < 2; i++) {
    double x = pts[i][0], y = pts[i][1];
    grad2 g = __enzyme_autodiff((void *)f, x, y);
    check_grad("d/dx", g.dx, x > y ? 2 * x : 0.0, fd_diff2(f, x, y, 0));
    check_grad("d/dy", g.dy, x > y ? 0.0 : 3.0, fd_diff2(f, x, y, 1));
  }
  return check_done();
}
