// The activity markers may be defined (`int enzyme_dup;`) rather than
// declared extern. All of them are then zero: the engine must tell them
// apart by name, not by value.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

int enzyme_dup;
int enzyme_const;
int enzyme_out;
double __enzyme_autodiff(void *, ...);

double f(double *x, double c, double y) { return x[0] * x[0] * y + c * y * y; }

static double f_of_y(double y) {
  double x[1] = {1.25};
  return f(x, 3.0, y);
}

int main(void) {
  double x[1] = {1.25}, dx[1] = {0}, c = 3.0, y = -0.7;
  double dy = __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, c, enzyme_out, y);
  check_grad("d/dy", dy, x[0] * x[0] + 2 * c * y, fd_diff1(f_of_y, y));
  check_close("d/dx0", dx[0], 2 * x[0] * y, RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
