// Unmarked floating-point arguments are enzyme_out.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

typedef struct { double dx, dy; } grad2;
grad2 __enzyme_autodiff(void *, ...);

double f(double x, double y) { return x * exp(y); }

int main(void) {
  double x = -0.8, y = 0.6;
  grad2 g = __enzyme_autodiff((void *)f, x, y);
  check_grad("d/dx", g.dx, exp(y), fd_diff2(f, x, y, 0));
  check_grad("d/dy", g.dy, x * exp(y), fd_diff2(f, x, y, 1));
  return check_done();
}
