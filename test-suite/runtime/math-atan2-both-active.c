// atan2(y, x) with both arguments active.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

typedef struct { double dx, dy; } grad2;
grad2 __enzyme_autodiff(void *, ...);
extern int enzyme_out;

double f(double y, double x) { return atan2(y, x); }

int main(void) {
  const double pts[4][2] = {{1.0, 2.0}, {1.0, -2.0}, {-1.0, -2.0}, {-0.5, 0.25}};
  for (int i = 0; i < 4; i++) {
    double y = pts[i][0], x = pts[i][1], r2 = x * x + y * y;
    grad2 g = __enzyme_autodiff((void *)f, enzyme_out, y, enzyme_out, x);
    check_grad_at("d/dy atan2", y, g.dx, x / r2, fd_diff2(f, y, x, 0));
    check_grad_at("d/dx atan2", x, g.dy, -y / r2, fd_diff2(f, y, x, 1));
  }
  return check_done();
}
