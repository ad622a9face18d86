// Two enzyme_out scalars: the gradient comes back as a struct of two doubles
// (returned in registers), in argument order.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O1 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

typedef struct { double dx, dy; } grad2;
grad2 __enzyme_autodiff(void *, ...);
extern int enzyme_out;

double f(double x, double y) { return x * x * y + sin(y); }

int main(void) {
  double x = 1.7, y = -0.4;
  grad2 g = __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_out, y);
  check_grad("d/dx", g.dx, 2 * x * y, fd_diff2(f, x, y, 0));
  check_grad("d/dy", g.dy, x * x + cos(y), fd_diff2(f, x, y, 1));
  return check_done();
}
