// The markers from <enzyme/enzyme.h>, with the prototype the user declares
// for the gradient type they want, ask for a gradient.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include <enzyme/enzyme.h>
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

double f(double *x, double y) { return x[0] * y + x[1] * x[1] + sin(y); }

static double f_of_y(double y) {
  double x[2] = {1.5, -0.5};
  return f(x, y);
}

int main(void) {
  double x[2] = {1.5, -0.5}, dx[2] = {0, 0}, y = 0.8;
  double dy = __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_out, y);
  check_grad("d/dy", dy, x[0] + cos(y), fd_diff1(f_of_y, y));
  check_close("d/dx0", dx[0], y, RTOL_EXACT, ATOL_EXACT);
  check_close("d/dx1", dx[1], 2 * x[1], RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
