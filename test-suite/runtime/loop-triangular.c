// A triangular loop nest (inner bound depends on the outer index):
// s = sum_{i} sum_{j<=i} a_i a_j, so ds/da_k = sum_{j<=k} a_j + sum_{i>=k} a_i.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

enum { N = 7 };

double tri(const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      s += a[i] * a[j];
  return s;
}

static double tri_v(const double *a, void *ctx) { (void)ctx; return tri(a, N); }

int main(void) {
  double a[N], da[N] = {0};
  for (int i = 0; i < N; i++)
    a[i] = cos(0.9 * i);
  __enzyme_autodiff((void *)tri, enzyme_dup, a, da, enzyme_const, N);
  for (int k = 0; k < N; k++) {
    double e = 0;
    for (int j = 0; j <= k; j++)
      e += a[j];
    for (int i = k; i < N; i++)
      e += a[i];
    check_grad("d/da_k", da[k], e, fd_partial(tri_v, a, N, k, 0));
  }
  return check_done();
}
