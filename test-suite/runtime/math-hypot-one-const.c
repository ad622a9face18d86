// hypot with one argument enzyme_const.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);
extern int enzyme_out, enzyme_const;

double f(double x, double y) { return hypot(x, y); }

int main(void) {
  double x = -1.2, y = 0.5, h = sqrt(x * x + y * y);
  double gx = __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_const, y);
  check_grad("d/dx hypot(x, const)", gx, x / h, fd_diff2(f, x, y, 0));
  double gy = __enzyme_autodiff((void *)f, enzyme_const, x, enzyme_out, y);
  check_grad("d/dy hypot(const, y)", gy, y / h, fd_diff2(f, x, y, 1));
  return check_done();
}
