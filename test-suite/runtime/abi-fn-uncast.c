// In C the function may be passed without a cast to void*.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

double f(double x) { return x * exp(x); }

int main(void) {
  for (double x = -1.5; x < 2.0; x += 1.25) {
    double g = __enzyme_autodiff(f, x);
    check_grad("d/dx x*exp(x)", g, (1 + x) * exp(x), fd_diff1(f, x));
  }
  return check_done();
}
