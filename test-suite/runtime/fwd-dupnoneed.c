// enzyme_dupnoneed in forward mode: like enzyme_dup, the shadow receives
// the tangents; the caller does not need the primal output (the engine may
// still compute it, so only the tangents are checked).
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_dupnoneed;
void __enzyme_fwddiff(void *, ...);

static void f(const double *x, double *out) {
  out[0] = x[0] * x[1];
  out[1] = exp(x[0]) - x[1];
}

int main(void) {
  double x[2] = {0.4, 1.5}, dx[2] = {1.0, 2.0};
  double out[2] = {0, 0}, dout[2] = {7, 7};
  __enzyme_fwddiff((void *)f, enzyme_dup, x, dx, enzyme_dupnoneed, out, dout);
  check_close("dout0", dout[0], dx[0] * x[1] + x[0] * dx[1], 1e-15, 0);
  check_close("dout1", dout[1], exp(x[0]) * dx[0] - dx[1], 1e-15, 0);
  return check_done();
}
