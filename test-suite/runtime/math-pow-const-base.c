// pow(c, y) with a constant base.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);
extern int enzyme_out, enzyme_const;

double f(double c, double y) { return pow(c, y); }

int main(void) {
  const double pts[2][2] = {{2.5, 1.3}, {0.3, -0.7}};
  for (int i = 0; i < 2; i++) {
    double c = pts[i][0], y = pts[i][1];
    double g = __enzyme_autodiff((void *)f, enzyme_const, c, enzyme_out, y);
    check_grad_at("d/dy pow(const, y)", y, g, pow(c, y) * log(c), fd_diff2(f, c, y, 1));
  }
  return check_done();
}
