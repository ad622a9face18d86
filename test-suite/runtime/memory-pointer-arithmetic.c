// Walking an array with pointer arithmetic (p + n, q += 2, *(q - 1)).
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

/* Sum of products of neighbouring pairs: p1 p0 + p3 p2 + p5 p4. */
double f(const double *p, int n) {
  const double *end = p + n;
  double s = 0;
  for (const double *q = p + 1; q < end; q += 2)
    s += *q * *(q - 1);
  return s;
}

static double f_v(const double *p, void *ctx) { (void)ctx; return f(p, 6); }

int main(void) {
  enum { N = 6 };
  double p[N] = {0.5, -1.0, 2.0, 0.25, 1.5, -3.0}, dp[N] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, p, dp, enzyme_const, N);
  for (int k = 0; k < N; k++)
    check_grad("d/dp_k", dp[k], k % 2 ? p[k - 1] : p[k + 1], fd_partial(f_v, p, N, k, 0));
  return check_done();
}
