// enzyme_dupnoneed: only the shadow of the output matters (its primal value
// is unspecified afterwards); the seeds in it reach the inputs' shadow and
// are consumed.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_dupnoneed;

void f(const double *x, double *out) {
  out[0] = x[0] * x[1];
  out[1] = sin(x[0]);
}

int main(void) {
  double x[2] = {0.7, -1.6}, dx[2] = {0, 0};
  double out[2] = {0, 0}, dout[2] = {1.0, 2.0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dupnoneed, out, dout);
  check_close("d/dx0", dx[0], x[1] * 1.0 + cos(x[0]) * 2.0, RTOL_EXACT, ATOL_EXACT);
  check_close("d/dx1", dx[1], x[0] * 1.0, RTOL_EXACT, ATOL_EXACT);
  check_close("dout0 consumed", dout[0], 0.0, 0.0, 0.0);
  check_close("dout1 consumed", dout[1], 0.0, 0.0, 0.0);
  return check_done();
}
