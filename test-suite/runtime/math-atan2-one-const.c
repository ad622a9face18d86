// atan2 with one argument enzyme_const.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);
extern int enzyme_out, enzyme_const;

double f(double y, double x) { return atan2(y, x); }

int main(void) {
  double y = 0.8, x = -1.5, r2 = x * x + y * y;
  double gy = __enzyme_autodiff((void *)f, enzyme_out, y, enzyme_const, x);
  check_grad("d/dy atan2(y, const)", gy, x / r2, fd_diff2(f, y, x, 0));
  double gx = __enzyme_autodiff((void *)f, enzyme_const, y, enzyme_out, x);
  check_grad("d/dx atan2(const, x)", gx, -y / r2, fd_diff2(f, y, x, 1));
  return check_done();
}
