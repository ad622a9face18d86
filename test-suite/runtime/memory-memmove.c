// memmove between overlapping ranges moves the shadow the same way.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"
#include <string.h>

void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

enum { N = 6 };

/* After the move b = (x0, x0, x1, ..., x_{n-2}); s = sum (i+1) b_i. */
double f(const double *x, int n) {
  double b[16];
  for (int i = 0; i < n; i++)
    b[i] = x[i] * x[i];
  memmove(b + 1, b, (n - 1) * sizeof(double));
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (i + 1) * b[i];
  return s;
}

static double f_v(const double *x, void *ctx) { (void)ctx; return f(x, N); }

int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++)
    x[i] = 1.0 - 0.35 * i;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  for (int j = 0; j < N; j++) {
    /* x_j^2 sits at b_{j+1} (weight j+2) when j <= n-2, and also at b_0 when j == 0. */
    double weight = (j == 0 ? 1.0 : 0.0) + (j <= N - 2 ? j + 2.0 : 0.0);
    check_grad("d/dx_j", dx[j], weight * 2 * x[j], fd_partial(f_v, x, N, j, 0));
  }
  return check_done();
}
