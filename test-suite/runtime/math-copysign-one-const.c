// copysign with one argument enzyme_const.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);
extern int enzyme_out, enzyme_const;

double f(double x, double y) { return copysign(x, y) * x; }

int main(void) {
  double x = 1.25, y = -3.0;
  /* copysign(x, y) * x = -x^2 here: derivative -2x. */
  double gx = __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_const, y);
  check_grad("d/dx copysign(x, const)*x", gx, -2 * x, fd_diff2(f, x, y, 0));
  double gy = __enzyme_autodiff((void *)f, enzyme_const, x, enzyme_out, y);
  check_grad("d/dy copysign(const, y)*const", gy, 0.0, fd_diff2(f, x, y, 1));
  return check_done();
}
