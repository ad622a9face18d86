// realloc grows a buffer holding active values: the shadow must grow with it
// and keep its contents. p_i = x^(i+1), ds/dx = sum (i+1) x^i.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

double f(double x, int n) {
  double *p = (double *)malloc(2 * sizeof(double));
  p[0] = x;
  p[1] = x * x;
  p = (double *)realloc(p, n * sizeof(double));
  for (int i = 2; i < n; i++)
    p[i] = p[i - 1] * x;
  double s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];
  free(p);
  return s;
}

static double f9(double x) { return f(x, 9); }

int main(void) {
  const double xs[2] = {0.8, -1.05};
  for (int i = 0; i < 2; i++) {
    double x = xs[i], d = 0;
    for (int k = 0; k < 9; k++)
      d += (k + 1) * pow(x, k);
    check_grad_at("d/dx", x, __enzyme_autodiff((void *)f, x, 9), d, fd_diff1(f9, x));
  }
  return check_done();
}
