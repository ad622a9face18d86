// memcpy moves the shadow along with the data: into a local buffer, and
// straight from one dup argument to another (whose shadow is then consumed).
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"
#include <string.h>

void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

enum { N = 6 };

double weighted_squares(const double *x, int n) {
  double buf[16];
  memcpy(buf, x, n * sizeof(double));
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (i + 1) * buf[i] * buf[i];
  return s;
}

void copy(const double *x, double *y, int n) { memcpy(y, x, n * sizeof(double)); }

static double ws_v(const double *x, void *ctx) { (void)ctx; return weighted_squares(x, N); }

int main(void) {
  double x[N], dx[N] = {0}, y[N], dy[N];
  for (int i = 0; i < N; i++)
    x[i] = 0.3 * i - 0.8;
  __enzyme_autodiff((void *)weighted_squares, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++)
    check_grad("d/dx_i via local copy", dx[i], 2 * (i + 1) * x[i], fd_partial(ws_v, x, N, i, 0));

  for (int i = 0; i < N; i++) {
    dx[i] = 0;
    dy[i] = 1.0 + i;
  }
  __enzyme_autodiff((void *)copy, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    check_close("d/dx_i via copy to output", dx[i], 1.0 + i, RTOL_EXACT, ATOL_EXACT);
    check_close("dy_i consumed", dy[i], 0.0, 0.0, 0.0);
  }
  return check_done();
}
