// memset: zeroing a local accumulator, and zeroing a dup output, which
// consumes (zeroes) the seeds in that output's shadow.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"
#include <string.h>

void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

double accumulate(const double *x, int n) {
  double acc[4];
  memset(acc, 0, sizeof acc);
  for (int i = 0; i < n; i++)
    acc[i % 4] += x[i] * x[i];
  return acc[0] * acc[1] + acc[2] + acc[3];
}

void reset_then_add(const double *x, double *y) {
  memset(y, 0, 2 * sizeof(double));
  y[0] += 3 * x[0];
}

static double accumulate8(const double *x, void *ctx) { (void)ctx; return accumulate(x, 8); }

int main(void) {
  enum { N = 8 };
  double x[N], dx[N] = {0}, A[4] = {0, 0, 0, 0};
  for (int i = 0; i < N; i++) {
    x[i] = 0.25 * i - 0.6;
    A[i % 4] += x[i] * x[i];
  }
  __enzyme_autodiff((void *)accumulate, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double outer = i % 4 == 0 ? A[1] : i % 4 == 1 ? A[0] : 1.0;
    check_grad("d/dx_i", dx[i], 2 * x[i] * outer, fd_partial(accumulate8, x, N, i, 0));
  }

  double x1[1] = {0.7}, dx1[1] = {0}, y[2] = {9, 9}, dy[2] = {1.0, 5.0};
  __enzyme_autodiff((void *)reset_then_add, enzyme_dup, x1, dx1, enzyme_dup, y, dy);
  check_close("d/dx through memset output", dx1[0], 3.0, RTOL_EXACT, ATOL_EXACT);
  check_close("dy0 consumed", dy[0], 0.0, 0.0, 0.0);
  check_close("dy1 consumed by memset", dy[1], 0.0, 0.0, 0.0);
  return check_done();
}
