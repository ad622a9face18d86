// Shadows accumulate (+=): they are not overwritten. Two calls on a shadow
// that starts non-zero give start + 2 * gradient.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

void __enzyme_autodiff(void *, ...);
extern int enzyme_dup;

double f(double *x) { return x[0] * x[1] + sin(x[2]); }

int main(void) {
  double x[3] = {1.5, -2.0, 0.3};
  double start[3] = {1.0, 2.0, 3.0};
  double dx[3] = {start[0], start[1], start[2]};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  double grad[3] = {x[1], x[0], cos(x[2])};
  for (int i = 0; i < 3; i++)
    check_close("start + 2 * d/dx_i", dx[i], start[i] + 2 * grad[i], RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
