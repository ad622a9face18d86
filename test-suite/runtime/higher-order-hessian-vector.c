// Higher order: a request inside differentiated code. The inner request is
// served first and its derivative differentiated like any other function.
// Hessian-vector products of f(x) = sum_i sin(x_i) x_{i+1}^2 by forward over
// reverse (__enzyme_fwddiff of a function that calls __enzyme_autodiff),
// checked against central differences of the gradient; and reverse over
// reverse: the gradient of |grad f|^2, checked against the Hessian-vector
// product with v = 2 grad f.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O3 %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

enum { N = 4 };

double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; ++i)
    s += sin(x[i]) * x[i + 1] * x[i + 1];
  return s;
}

void grad(const double *x, double *g, int n) {
  for (int i = 0; i < n; ++i)
    g[i] = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, n);
}

void hvp(const double *x, const double *v, double *hv) {
  double g[N];
  __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_dup, g, hv,
                   enzyme_const, N);
}

double grad_norm2(const double *x) {
  double g[N], s = 0;
  grad(x, g, N);
  for (int i = 0; i < N; ++i)
    s += g[i] * g[i];
  return s;
}

int main(void) {
  double x[N] = {0.3, -0.7, 1.1, 0.5}, v[N] = {1, 0.5, -0.25, 2}, hv[N];
  hvp(x, v, hv);
  double h = 1e-5, xp[N], xm[N], gp[N], gm[N];
  for (int i = 0; i < N; ++i) {
    xp[i] = x[i] + h * v[i];
    xm[i] = x[i] - h * v[i];
  }
  grad(xp, gp, N);
  grad(xm, gm, N);
  for (int i = 0; i < N; ++i)
    check_close("H v", hv[i], (gp[i] - gm[i]) / (2 * h), 1e-6, 1e-6);

  double dx[N] = {0}, g[N], two_g[N], h2g[N];
  __enzyme_autodiff((void *)grad_norm2, enzyme_dup, x, dx);
  grad(x, g, N);
  for (int i = 0; i < N; ++i)
    two_g[i] = 2 * g[i];
  hvp(x, two_g, h2g); // d/dx |g|^2 = 2 H g
  for (int i = 0; i < N; ++i)
    check_close("grad |grad f|^2", dx[i], h2g[i], 1e-12, 1e-12);
  return check_done();
}
