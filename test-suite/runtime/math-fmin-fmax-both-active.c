// fmin and fmax with both arguments active: the chosen one gets the adjoint.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

typedef struct { double dx, dy; } grad2;
grad2 __enzyme_autodiff(void *, ...);
extern int enzyme_out;

double f_min(double x, double y) { return fmin(x, y); }
double f_max(double x, double y) { return fmax(x, y); }

int main(void) {
  const double pts[2][2] = {{1.0, 2.0}, {3.0, -1.0}};
  for (int i = 0; i < 2; i++) {
    double x = pts[i][0], y = pts[i][1];
    grad2 g = __enzyme_autodiff((void *)f_min, enzyme_out, x, enzyme_out, y);
    check_grad_at("d/dx fmin", x, g.dx, x < y ? 1.0 : 0.0, fd_diff2(f_min, x, y, 0));
    check_grad_at("d/dy fmin", y, g.dy, x < y ? 0.0 : 1.0, fd_diff2(f_min, x, y, 1));
    g = __enzyme_autodiff((void *)f_max, enzyme_out, x, enzyme_out, y);
    check_grad_at("d/dx fmax", x, g.dx, x > y ? 1.0 : 0.0, fd_diff2(f_max, x, y, 0));
    check_grad_at("d/dy fmax", y, g.dy, x > y ? 0.0 : 1.0, fd_diff2(f_max, x, y, 1));
  }
  return check_done();
}
