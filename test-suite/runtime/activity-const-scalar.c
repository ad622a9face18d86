// enzyme_const scalar next to an enzyme_out one: one gradient returned.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);
extern int enzyme_out, enzyme_const;

double f(double x, double c) { return sin(c * x) + c; }

static double c_now;
static double f_c(double x) { return f(x, c_now); }

int main(void) {
  const double cs[2] = {0.5, -3.0};
  for (int i = 0; i < 2; i++) {
    double x = 1.1, c = c_now = cs[i];
    double g = __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_const, c);
    check_grad("d/dx sin(cx)", g, c * cos(c * x), fd_diff1(f_c, x));
  }
  return check_done();
}
