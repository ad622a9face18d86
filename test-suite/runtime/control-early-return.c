// Several return paths.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

double f(double x) {
  if (x < 0)
    return -x * x;
  double y = x * x * x;
  if (y > 8)
    return y - 8 * x;
  return y;
}

int main(void) {
  const double xs[3] = {-1.5, 1.2, 2.5};
  for (int i = 0; i < 3; i++) {
    double x = xs[i];
    double d = x < 0 ? -2 * x : (x * x * x > 8 ? 3 * x * x - 8 : 3 * x * x);
    check_grad_at("d/dx", x, __enzyme_autodiff((void *)f, x), d, fd_diff1(f, x));
  }
  return check_done();
}
