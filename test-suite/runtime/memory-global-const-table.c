// Constant global tables are inactive data: a polynomial with coefficients
// in a static const table and in an external const table.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

static const double coeffs[6] = {1.0, -0.5, 0.25, 2.0, -1.0, 0.125};
const double scale_table[3] = {0.5, 1.5, 2.5};

double f(double x) {
  double y = 0;
  for (int k = 5; k >= 0; k--)
    y = y * x + coeffs[k];
  return y * scale_table[(int)(x > 0) + 1];
}

int main(void) {
  const double xs[2] = {0.8, -1.3};
  for (int i = 0; i < 2; i++) {
    double x = xs[i], d = 0;
    for (int k = 1; k < 6; k++)
      d += k * coeffs[k] * pow(x, k - 1);
    d *= scale_table[(int)(x > 0) + 1];
    check_grad_at("d/dx", x, __enzyme_autodiff((void *)f, x), d, fd_diff1(f, x));
  }
  return check_done();
}
