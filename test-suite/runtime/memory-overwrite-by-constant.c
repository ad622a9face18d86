// Memory overwritten inside the function: a value stored and then replaced
// by a constant contributes nothing; a value stored and then updated from
// itself contributes through the update. Both output shadows are consumed.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

void __enzyme_autodiff(void *, ...);
extern int enzyme_dup;

void f(const double *x, double *buf) {
  buf[0] = x[0] * x[0];
  buf[0] = buf[0] * x[0]; /* x^3 */
  buf[1] = 2 * x[0];
  buf[1] = 5.0; /* the derivative through buf[1] is gone */
}

int main(void) {
  double x[1] = {1.2}, dx[1] = {0}, buf[2] = {0, 0}, dbuf[2] = {1.0, 1.0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, buf, dbuf);
  check_close("d/dx", dx[0], 3 * x[0] * x[0], RTOL_EXACT, ATOL_EXACT);
  check_close("dbuf0 consumed", dbuf[0], 0.0, 0.0, 0.0);
  check_close("dbuf1 consumed", dbuf[1], 0.0, 0.0, 0.0);
  return check_done();
}
