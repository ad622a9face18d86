// calloc inside the function: the zeroed buffer is accumulated into (its
// shadow must start at zero too). s = A0 A1 + A2 with A_r = sum_{i%3==r} x_i^2.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

double f(const double *x, int n) {
  double *acc = (double *)calloc(3, sizeof(double));
  for (int i = 0; i < n; i++)
    acc[i % 3] += x[i] * x[i];
  double s = acc[0] * acc[1] + acc[2];
  free(acc);
  return s;
}

static double f_v(const double *x, void *ctx) { (void)ctx; return f(x, 7); }

int main(void) {
  enum { N = 7 };
  double x[N], dx[N] = {0}, A[3] = {0, 0, 0};
  for (int i = 0; i < N; i++) {
    x[i] = 0.4 * i - 1.0;
    A[i % 3] += x[i] * x[i];
  }
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double outer = i % 3 == 0 ? A[1] : i % 3 == 1 ? A[0] : 1.0;
    check_grad("d/dx_i", dx[i], 2 * x[i] * outer, fd_partial(f_v, x, N, i, 0));
  }
  return check_done();
}
