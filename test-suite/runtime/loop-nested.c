// Nested loops: the quadratic form x^T A x with A and x both dup.
// d/dx = (A + A^T) x, d/dA_ij = x_i x_j.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

enum { N = 4 };

double quad(const double *A, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      s += x[i] * A[i * n + j] * x[j];
  return s;
}

static double A_now[N * N];
static double quad_x(const double *x, void *ctx) { (void)ctx; return quad(A_now, x, N); }

int main(void) {
  double A[N * N], dA[N * N] = {0}, x[N], dx[N] = {0};
  for (int i = 0; i < N * N; i++)
    A[i] = sin(1.0 + i);
  for (int i = 0; i < N; i++)
    x[i] = 0.5 * i - 0.7;
  memcpy(A_now, A, sizeof A);
  __enzyme_autodiff((void *)quad, enzyme_dup, A, dA, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double e = 0;
    for (int j = 0; j < N; j++) {
      e += (A[i * N + j] + A[j * N + i]) * x[j];
      check_close("d/dA_ij", dA[i * N + j], x[i] * x[j], RTOL_EXACT, ATOL_EXACT);
    }
    check_grad("d/dx_i", dx[i], e, fd_partial(quad_x, x, N, i, 0));
  }
  return check_done();
}
