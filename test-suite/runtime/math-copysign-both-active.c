// copysign(x, y) with both arguments active: d/dx = sign(x)*sign(y), d/dy = 0.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

typedef struct { double dx, dy; } grad2;
grad2 __enzyme_autodiff(void *, ...);
extern int enzyme_out;

double f(double x, double y) { return copysign(x, y) * 3.0; }

int main(void) {
  const double pts[3][2] = {{1.5, -2.0}, {-1.5, -2.0}, {-0.5, 4.0}};
  for (int i = 0; i < 3; i++) {
    double x = pts[i][0], y = pts[i][1];
    grad2 g = __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_out, y);
    double sx = x > 0 ? 1.0 : -1.0, sy = y > 0 ? 1.0 : -1.0;
    check_grad_at("d/dx copysign", x, g.dx, 3.0 * sx * sy, fd_diff2(f, x, y, 0));
    check_grad_at("d/dy copysign", y, g.dy, 0.0, fd_diff2(f, x, y, 1));
  }
  return check_done();
}
