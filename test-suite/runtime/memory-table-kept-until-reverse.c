// A block the function allocates, fills and then only reads (a table such as
// GMM's exp of the diagonal) stays allocated until the reverse pass, which
// reloads the values it needs from it instead of recording every read; the
// reverse pass frees it. A table written again after a read is recorded as
// before, and frees on several paths all move.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

enum { N = 5, P = 4 };

/* t[i] = exp(x[i]); sum_p sum_i t[i]^2 sin(p + i). */
double table_read_later(const double *x, int n) {
  double *t = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    t[i] = exp(x[i]);
  double s = 0;
  for (int p = 0; p < P; p++)
    for (int i = 0; i < n; i++)
      s += t[i] * t[i] * sin(p + i);
  free(t);
  return s;
}

/* The table is scaled in place after it was read: those reads are recorded.
 * sum_i t[i]^2 + sum_i t[i] x[i]. */
double table_rewritten(const double *x, int n) {
  double *t = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    t[i] = exp(x[i]);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i] * t[i];
  for (int i = 0; i < n; i++)
    t[i] *= x[i];
  for (int i = 0; i < n; i++)
    s += t[i];
  free(t);
  return s;
}

/* Freed on two paths. x[0] > 0: sum_i t[i]^3; else 0.5 sum_i t[i]. */
double table_two_frees(const double *x, int n) {
  double *t = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    t[i] = exp(x[i]);
  double s = 0;
  if (x[0] > 0) {
    for (int i = 0; i < n; i++)
      s += t[i] * t[i] * t[i];
    free(t);
    return s;
  }
  for (int i = 0; i < n; i++)
    s += 0.5 * t[i];
  free(t);
  return s;
}

int main(void) {
  double x[N] = {0.3, -0.2, 0.5, 0.1, -0.4}, dx[N] = {0};
  __enzyme_autodiff((void *)table_read_later, enzyme_dup, x, dx, enzyme_const,
                    N);
  for (int i = 0; i < N; i++) {
    double sines = 0;
    for (int p = 0; p < P; p++)
      sines += sin(p + i);
    check_close("table read later", dx[i], 2 * exp(2 * x[i]) * sines,
                RTOL_EXACT, ATOL_EXACT);
  }

  double dy[N] = {0};
  __enzyme_autodiff((void *)table_rewritten, enzyme_dup, x, dy, enzyme_const,
                    N);
  for (int i = 0; i < N; i++)
    check_close("table rewritten", dy[i],
                2 * exp(2 * x[i]) + exp(x[i]) * (x[i] + 1), RTOL_EXACT,
                ATOL_EXACT);

  double dz[N] = {0};
  __enzyme_autodiff((void *)table_two_frees, enzyme_dup, x, dz, enzyme_const,
                    N);
  for (int i = 0; i < N; i++)
    check_close("two frees, x[0] > 0", dz[i], 3 * exp(3 * x[i]), RTOL_EXACT,
                ATOL_EXACT);
  double xn[N] = {-0.3, -0.2, 0.5, 0.1, -0.4}, dn[N] = {0};
  __enzyme_autodiff((void *)table_two_frees, enzyme_dup, xn, dn, enzyme_const,
                    N);
  for (int i = 0; i < N; i++)
    check_close("two frees, x[0] < 0", dn[i], 0.5 * exp(xn[i]), RTOL_EXACT,
                ATOL_EXACT);
  return check_done();
}
