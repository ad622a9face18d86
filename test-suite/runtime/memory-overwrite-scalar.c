// An input overwritten in place: *x = *x * *x. The reverse pass must use the
// old value: the shadow seed 1 becomes d(x^2)/dx = 2 x_old.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

void __enzyme_autodiff(void *, ...);
extern int enzyme_dup;

void f(double *x) { *x = *x * *x; }

int main(void) {
  double x0 = 1.4, x = x0, dx = 1.0;
  __enzyme_autodiff((void *)f, enzyme_dup, &x, &dx);
  check_close("x primal", x, x0 * x0, RTOL_EXACT, ATOL_EXACT);
  check_close("d/dx", dx, 2 * x0, RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
