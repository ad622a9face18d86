// A helper that is never inlined, called twice with different arguments:
// the callee is differentiated on its own and its adjoints flow back.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

typedef struct { double dx, dy; } grad2;
grad2 __enzyme_autodiff(void *, ...);

__attribute__((noinline)) static double helper(double a, double b) { return a * sin(b); }

double f(double x, double y) { return helper(x, y) + helper(y, x * x); }

int main(void) {
  double x = 0.9, y = -0.4;
  grad2 g = __enzyme_autodiff((void *)f, x, y);
  check_grad("d/dx", g.dx, sin(y) + y * cos(x * x) * 2 * x, fd_diff2(f, x, y, 0));
  check_grad("d/dy", g.dy, x * cos(y) + sin(x * x), fd_diff2(f, x, y, 1));
  return check_done();
}
