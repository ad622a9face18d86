// enzyme_const parameters take no tangent and are not differentiated;
// unmarked integers are constant. The tangent is the partial derivative in
// the duplicated parameters only.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const;
double __enzyme_fwddiff(void *, ...);

static double f(double x, double c, int n, const double *table) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += table[i] * pow(x, i) * c;
  return s;
}

static const double table[4] = {1.0, -2.0, 0.5, 0.25};
static double f_x(double x) { return f(x, 1.75, 4, table); }
static double f_c(double c) { return f(0.8, c, 4, table); }

int main(void) {
  double x = 0.8, c = 1.75;
  double dx = __enzyme_fwddiff((void *)f, enzyme_dup, x, 1.0, enzyme_const, c, 4,
                               enzyme_const, table);
  double expect = c * (-2.0 + 2 * 0.5 * x + 3 * 0.25 * x * x);
  check_grad("d/dx", dx, expect, fd_diff1(f_x, x));
  double dc = __enzyme_fwddiff((void *)f, enzyme_const, x, c, 1.0, 4, enzyme_const, table);
  check_grad("d/dc", dc, f_x(x) / c, fd_diff1(f_c, c));
  return check_done();
}
