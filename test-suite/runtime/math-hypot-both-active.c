// hypot(x, y) with both arguments active.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

typedef struct { double dx, dy; } grad2;
grad2 __enzyme_autodiff(void *, ...);
extern int enzyme_out;

double f(double x, double y) { return hypot(x, y); }

int main(void) {
  const double pts[2][2] = {{3.0, -4.0}, {0.2, 1.7}};
  for (int i = 0; i < 2; i++) {
    double x = pts[i][0], y = pts[i][1], h = sqrt(x * x + y * y);
    grad2 g = __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_out, y);
    check_grad_at("d/dx hypot", x, g.dx, x / h, fd_diff2(f, x, y, 0));
    check_grad_at("d/dy hypot", y, g.dy, y / h, fd_diff2(f, x, y, 1));
  }
  return check_done();
}
