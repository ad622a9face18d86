// Duplicated pointers in forward mode: the shadow of an input holds the
// tangents of its elements (read), the shadow of an output receives the
// tangents of the results (overwritten, not accumulated). dy = J dx is
// checked against finite differences, and against reverse mode:
// <w, J v> = <J^T w, v>.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const;
void __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff(void *, ...);

enum { N = 5 };

/* y[i] = sin(x[i]) * x[(i + 1) % n] + exp(x[i] / n); y[n - 1] also += sum. */
static void f(const double *x, double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    y[i] = sin(x[i]) * x[(i + 1) % n] + exp(x[i] / n);
    s += x[i] * x[i];
  }
  y[n - 1] += s;
}

/* Output i as a function of x, for finite differences. */
static double f_out(const double *x, void *ctx) {
  double y[N];
  f(x, y, N);
  return y[*(int *)ctx];
}

int main(void) {
  double x[N] = {0.3, -1.2, 0.8, 2.0, -0.4};
  double v[N] = {1.0, 0.5, -0.25, 2.0, -1.5};
  double y[N], dy[N];
  for (int i = 0; i < N; ++i)
    dy[i] = 1e300; /* overwritten, not accumulated */
  __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_dup, y, dy, N);

  double y0[N];
  f(x, y0, N);
  for (int i = 0; i < N; ++i) {
    check_close("primal y", y[i], y0[i], 1e-15, 0);
    double jv = 0; /* J v by finite differences, column by column */
    for (int j = 0; j < N; ++j)
      jv += fd_partial(f_out, x, N, j, &i) * v[j];
    check_fd("dy = J v", dy[i], jv);
  }

  /* Reverse mode with seed w: dx_rev = J^T w. */
  double w[N] = {0.7, -1.0, 0.2, 1.5, 0.3};
  double dxr[N] = {0}, yr[N], dyr[N];
  for (int i = 0; i < N; ++i)
    dyr[i] = w[i];
  __enzyme_autodiff((void *)f, enzyme_dup, x, dxr, enzyme_dup, yr, dyr, N);
  double lhs = 0, rhs = 0;
  for (int i = 0; i < N; ++i) {
    lhs += w[i] * dy[i];
    rhs += dxr[i] * v[i];
  }
  check_close("<w, J v> = <J^T w, v>", lhs, rhs, 1e-12, 1e-13);
  /* The input's shadow is only read. */
  check_close("v unchanged", v[3], 2.0, 0, 0);
  return check_done();
}
