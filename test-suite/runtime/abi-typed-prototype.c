// A non-variadic prototype with the exact argument types, including the
// function pointer type and an int marker, works like the variadic one.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_const;
double __enzyme_autodiff(double (*)(double, double), double, int, double);

double f(double x, double c) { return c * x * x + x / c; }

static double f_c(double x) { return f(x, 2.5); }

int main(void) {
  double x = 0.9, c = 2.5;
  double g = __enzyme_autodiff(f, x, enzyme_const, c);
  check_grad("d/dx", g, 2 * c * x + 1 / c, fd_diff1(f_c, x));
  return check_done();
}
