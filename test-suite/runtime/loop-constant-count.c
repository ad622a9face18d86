// A loop with a constant trip count (Horner evaluation of 1 + x + ... + x^10).
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O1 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O3 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

double f(double x) {
  double y = 1;
  for (int i = 0; i < 10; i++)
    y = y * x + 1;
  return y;
}

int main(void) {
  const double xs[2] = {0.9, -1.05};
  for (int i = 0; i < 2; i++) {
    double x = xs[i], d = 0;
    for (int k = 1; k <= 10; k++)
      d += k * pow(x, k - 1);
    check_grad_at("d/dx", x, __enzyme_autodiff((void *)f, x), d, fd_diff1(f, x));
  }
  return check_done();
}
