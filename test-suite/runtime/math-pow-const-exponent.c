// pow(x, c) with a constant exponent, also of a negative base.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);
extern int enzyme_out, enzyme_const;

double f(double x, double c) { return pow(x, c); }
static double f_square(double x) { return pow(x, 2.0); }

static double c_now;
static double f_c(double x) { return f(x, c_now); }

int main(void) {
  const double pts[3][2] = {{-1.5, 3.0}, {2.0, 0.5}, {0.8, -2.0}};
  for (int i = 0; i < 3; i++) {
    double x = pts[i][0], c = c_now = pts[i][1];
    double g = __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_const, c);
    check_grad_at("d/dx pow(x, const)", x, g, c * pow(x, c - 1), fd_diff1(f_c, x));
  }
  double x = -0.6;
  check_grad("d/dx pow(x, 2.0)", __enzyme_autodiff((void *)f_square, x), 2 * x,
             fd_diff1(f_square, x));
  return check_done();
}
