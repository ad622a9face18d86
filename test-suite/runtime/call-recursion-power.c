// A recursive function (exponentiation by squaring): d x^n = n x^(n-1).
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

double rpow(double x, int n) {
  if (n == 0)
    return 1.0;
  if (n % 2)
    return x * rpow(x, n - 1);
  double h = rpow(x, n / 2);
  return h * h;
}

static int n_now;
static double rpow_n(double x) { return rpow(x, n_now); }

int main(void) {
  double x = 1.1;
  const int ns[3] = {1, 8, 13};
  for (int i = 0; i < 3; i++) {
    int n = n_now = ns[i];
    check_grad_at("d/dx x^n for n", n, __enzyme_autodiff((void *)rpow, x, n),
                  n * pow(x, n - 1), fd_diff1(rpow_n, x));
  }
  return check_done();
}
