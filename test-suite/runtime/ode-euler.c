// Explicit Euler over 10^4 steps for y' = -k y: y_N = y0 (1 - k h)^N exactly,
// so d/dy0 = (1 - k h)^N and d/dk = -y0 N h (1 - k h)^(N - 1).
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

typedef struct { double dy0, dk; } grad2;
grad2 __enzyme_autodiff(void *, ...);

enum { N = 10000 };
static const double T = 2.0;

double euler(double y0, double k) {
  double h = T / N, y = y0;
  for (int i = 0; i < N; i++)
    y += h * (-k * y);
  return y;
}

int main(void) {
  double y0 = 1.5, k = 0.8, h = T / N;
  grad2 g = __enzyme_autodiff((void *)euler, y0, k);
  /* 10^4 roundings of the same product: 1e-10 relative. */
  check_grad_tol("d/dy0", g.dy0, pow(1 - k * h, N), fd_diff2(euler, y0, k, 0), 1e-10);
  check_grad_tol("d/dk", g.dk, -y0 * N * h * pow(1 - k * h, N - 1), fd_diff2(euler, y0, k, 1),
                 1e-10);
  return check_done();
}
