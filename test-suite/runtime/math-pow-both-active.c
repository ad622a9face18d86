// pow(x, y) with both arguments active.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

typedef struct { double dx, dy; } grad2;
grad2 __enzyme_autodiff(void *, ...);
extern int enzyme_out;

double f(double x, double y) { return pow(x, y); }

int main(void) {
  const double pts[3][2] = {{1.5, 2.3}, {0.7, -1.2}, {3.0, 0.5}};
  for (int i = 0; i < 3; i++) {
    double x = pts[i][0], y = pts[i][1];
    grad2 g = __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_out, y);
    check_grad_at("d/dx pow", x, g.dx, y * pow(x, y - 1), fd_diff2(f, x, y, 0));
    check_grad_at("d/dy pow", y, g.dy, pow(x, y) * log(x), fd_diff2(f, x, y, 1));
  }
  return check_done();
}
