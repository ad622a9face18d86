// enzyme_const pointer: its data is read but not differentiated; only the
// dup argument's shadow receives a gradient.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

double f(const double *w, double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += w[i] * x[i] * x[i];
  return s;
}

static const double W[3] = {2.0, -1.0, 0.5};
static double f_x(const double *x, void *ctx) { (void)ctx; return f(W, (double *)x, 3); }

int main(void) {
  enum { N = 3 };
  double w[N] = {2.0, -1.0, 0.5}, x[N] = {0.3, 1.1, -2.0}, dx[N] = {0};
  __enzyme_autodiff((void *)f, enzyme_const, w, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++)
    check_grad("d/dx_i", dx[i], 2 * w[i] * x[i], fd_partial(f_x, x, N, i, 0));
  check_close("w untouched", w[0] + w[1] + w[2], 2.0 - 1.0 + 0.5, 0.0, 0.0);
  return check_done();
}
