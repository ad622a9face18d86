// malloc and free inside the differentiated function: the buffer gets a
// shadow allocation. p_i = x^(i+1), s = sum p_i / (i+1), ds/dx = sum x^i.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

double f(double x, int n) {
  double *p = (double *)malloc(n * sizeof(double));
  p[0] = x;
  for (int i = 1; i < n; i++)
    p[i] = p[i - 1] * x;
  double s = 0;
  for (int i = 0; i < n; i++)
    s += p[i] / (i + 1);
  free(p);
  return s;
}

static double f8(double x) { return f(x, 8); }

int main(void) {
  const double xs[2] = {0.9, -1.1};
  for (int i = 0; i < 2; i++) {
    double x = xs[i], d = 0;
    for (int k = 0; k < 8; k++)
      d += pow(x, k);
    check_grad_at("d/dx", x, __enzyme_autodiff((void *)f, x, 8), d, fd_diff1(f8, x));
  }
  return check_done();
}
