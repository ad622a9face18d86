// An array squared in place three times (x <- x^8) and then scaled by sin of
// its old value: the reverse pass needs every overwritten value.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

enum { N = 5 };

void f(double *x, int n) {
  for (int rep = 0; rep < 3; rep++)
    for (int i = 0; i < n; i++)
      x[i] = x[i] * x[i];
  for (int i = 0; i < n; i++)
    x[i] = sin(x[i]) * x[i];
}

int main(void) {
  double x0[N] = {0.9, -0.8, 1.05, 0.5, -1.1}, x[N], dx[N], w[N] = {1, 2, -1, 0.5, 3};
  for (int i = 0; i < N; i++) {
    x[i] = x0[i];
    dx[i] = w[i]; /* seed: the adjoint of the final x_i */
  }
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double u = pow(x0[i], 8), du = 8 * pow(x0[i], 7);
    check_close("x_i primal", x[i], sin(u) * u, 1e-14, 1e-14);
    check_close("d/dx_i", dx[i], w[i] * (cos(u) * u + sin(u)) * du, RTOL_EXACT, ATOL_EXACT);
  }
  return check_done();
}
