// if/else joining in a phi: the reverse pass follows the branch taken.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

double f(double x) {
  double r;
  if (x > 0)
    r = sin(x) * x;
  else
    r = x * x * x;
  return r + x;
}

int main(void) {
  const double xs[2] = {0.7, -1.3};
  for (int i = 0; i < 2; i++) {
    double x = xs[i];
    double d = x > 0 ? cos(x) * x + sin(x) + 1 : 3 * x * x + 1;
    check_grad_at("d/dx", x, __enzyme_autodiff((void *)f, x), d, fd_diff1(f, x));
  }
  return check_done();
}
