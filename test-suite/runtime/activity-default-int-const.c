// An unmarked integer is enzyme_const; it is not followed by a shadow.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

double f(double x, int n) {
  double p = 1;
  for (int i = 0; i < n; i++)
    p *= x;
  return p * n;
}

static int n_now;
static double f_n(double x) { return f(x, n_now); }

int main(void) {
  double x = 1.1;
  for (int n = 1; n <= 5; n += 2) {
    n_now = n;
    double g = __enzyme_autodiff((void *)f, x, n);
    check_grad("d/dx n*x^n", g, n * n * pow(x, n - 1), fd_diff1(f_n, x));
  }
  return check_done();
}
