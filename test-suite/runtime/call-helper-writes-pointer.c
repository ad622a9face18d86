// A non-inlined callee updating the caller's local accumulator through a
// pointer (an active stack slot passed to a call).
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

__attribute__((noinline)) static void accumulate(double *s, double v) { *s += v * v * v; }

double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    accumulate(&s, x[i]);
  return s;
}

static double f_v(const double *x, void *ctx) { (void)ctx; return f(x, 4); }

int main(void) {
  enum { N = 4 };
  double x[N] = {0.5, -1.5, 2.0, 0.1}, dx[N] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++)
    check_grad("d/dx_i", dx[i], 3 * x[i] * x[i], fd_partial(f_v, x, N, i, 0));
  return check_done();
}
