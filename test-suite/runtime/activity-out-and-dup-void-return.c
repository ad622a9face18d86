// A void function with an active scalar input and a dup output: the seeds in
// the output shadow give the scalar's gradient, returned; the output shadow
// is consumed.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);
extern int enzyme_out, enzyme_dup;

void f(double x, double *y) {
  y[0] = x * x;
  y[1] = sin(x);
}

static double weighted(double x) {
  double y[2];
  f(x, y);
  return 1.0 * y[0] + 3.0 * y[1];
}

int main(void) {
  double x = 0.9, y[2] = {0, 0}, dy[2] = {1.0, 3.0};
  double g = __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_dup, y, dy);
  check_grad("d/dx", g, 2 * x + 3 * cos(x), fd_diff1(weighted, x));
  check_close("y0 primal", y[0], x * x, RTOL_EXACT, ATOL_EXACT);
  check_close("dy0 consumed", dy[0], 0.0, 0.0, 0.0);
  check_close("dy1 consumed", dy[1], 0.0, 0.0, 0.0);
  return check_done();
}
