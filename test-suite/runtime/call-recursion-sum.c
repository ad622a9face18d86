// Divide-and-conquer recursion over a dup array: s = sum x_i sin(x_i).
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

double rsum(const double *x, int n) {
  if (n == 1)
    return x[0] * sin(x[0]);
  int h = n / 2;
  return rsum(x, h) + rsum(x + h, n - h);
}

static double rsum_v(const double *x, void *ctx) { (void)ctx; return rsum(x, 11); }

int main(void) {
  enum { N = 11 };
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++)
    x[i] = 0.3 * i - 1.4;
  __enzyme_autodiff((void *)rsum, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++)
    check_grad("d/dx_i", dx[i], sin(x[i]) + x[i] * cos(x[i]), fd_partial(rsum_v, x, N, i, 0));
  return check_done();
}
