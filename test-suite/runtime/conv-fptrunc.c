// fptrunc: a double argument rounded to float keeps its derivative; the
// adjoint flows back through the float computation.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

/* f = t^2 x with t = (float)x, so df/dx = 3x^2 up to float rounding. */
double f(double x) {
  float t = (float)x;
  float u = t * t;
  return (double)u * x;
}

int main(void) {
  const double xs[3] = {1.5, 0.1, -2.3};
  for (int i = 0; i < 3; i++) {
    double x = xs[i];
    check_close("d/dx", __enzyme_autodiff((void *)f, x), 3 * x * x, 1e-6, 1e-6);
  }
  return check_done();
}
