// pow(0, y) with y > 0 is 0 for every y: its derivative in y is 0. The rule
// pow(x, y) log(x) gave 0 * -inf = NaN there, and the NaN spread to every
// gradient the adjoint reached (C fuzzer seeds 6526, 8853, 9438:
// pow((double)i, x[i]) in a loop from i = 0).
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);

/* sum_i pow(i, x[i]) for i = 0..2: d/dx[i] = pow(i, x[i]) log(i), 0 at i=0. */
double powers(double *x) {
  double s = 0;
  for (int i = 0; i < 3; i++)
    s += pow((double)i, x[i]);
  return s;
}

int main(void) {
  double x[3] = {1.5, 2.0, 0.5}, dx[3] = {0, 0, 0};
  __enzyme_autodiff((void *)powers, enzyme_dup, x, dx);
  check_close("d/dx[0] (base 0)", dx[0], 0.0, RTOL_EXACT, ATOL_EXACT);
  check_close("d/dx[1] (base 1)", dx[1], 0.0, RTOL_EXACT, ATOL_EXACT);
  check_close("d/dx[2] (base 2)", dx[2], pow(2.0, 0.5) * log(2.0), RTOL_EXACT,
              ATOL_EXACT);
  return check_done();
}
