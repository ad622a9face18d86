// A double-returning function whose only active input is a dup pointer: the
// return is seeded with 1.0 and the gradient lands in the shadow.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * x[i];
  return s;
}

static double f_v(const double *x, void *ctx) { return f(x, *(int *)ctx); }

int main(void) {
  enum { N = 4 };
  double x[N] = {0.5, -1.0, 2.0, 0.25}, dx[N] = {0};
  int n = N;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
  for (int i = 0; i < N; i++)
    check_grad("d/dx_i", dx[i], 3 * x[i] * x[i], fd_partial(f_v, x, N, i, &n));
  return check_done();
}
