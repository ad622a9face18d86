// Memory that a helper allocates and returns receives derivatives although
// the helper's arguments carry none (make(4)): the helper's result gets a
// shadow (its augmented function returns the shadow of the block), so the
// derivatives stored there and read back are not lost. At -O0, where the
// helpers stay calls, this used to give x^2 instead of 3 x^2, silently. The
// block is freed by another helper. Also a struct of two such blocks built
// by a helper, and forward mode.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O0 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t -lm && %t
#include "Inputs/check.h"
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { N = 4 };

__attribute__((noinline)) static double *make(int n) {
  return malloc(n * sizeof(double));
}
__attribute__((noinline)) static void release(double *p) { free(p); }

struct pair {
  double *a, *b;
};
__attribute__((noinline)) static struct pair *make_pair(int n) {
  struct pair *p = malloc(sizeof *p);
  p->a = make(n);
  p->b = calloc(n, sizeof(double));
  return p;
}
__attribute__((noinline)) static void release_pair(struct pair *p) {
  release(p->a);
  free(p->b);
  free(p);
}

/* sum x_i^3 through a helper-made buffer. */
__attribute__((noinline)) static double cubes(const double *x) {
  double *t = make(N);
  for (int i = 0; i < N; ++i)
    t[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += t[i] * x[i];
  release(t);
  return s;
}

/* sum (x_i^2 + sin x_i) * x_i through two blocks of a helper-made struct. */
__attribute__((noinline)) static double pairs(const double *x) {
  struct pair *p = make_pair(N);
  for (int i = 0; i < N; ++i) {
    p->a[i] = x[i] * x[i];
    p->b[i] = sin(x[i]);
  }
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += (p->a[i] + p->b[i]) * x[i];
  release_pair(p);
  return s;
}

int main(void) {
  double x[N] = {1, 2, -3, 0.5};
  double dx[N] = {0}, dp[N] = {0};
  __enzyme_autodiff((void *)cubes, enzyme_dup, x, dx);
  __enzyme_autodiff((void *)pairs, enzyme_dup, x, dp);
  for (int i = 0; i < N; ++i) {
    check_close("d cubes / dx_i", dx[i], 3 * x[i] * x[i], RTOL_EXACT,
                ATOL_EXACT);
    check_close("d pairs / dx_i", dp[i],
                3 * x[i] * x[i] + sin(x[i]) + x[i] * cos(x[i]), RTOL_EXACT,
                ATOL_EXACT);
    double v[N] = {0};
    v[i] = 1;
    check_close("forward d cubes / dx_i",
                __enzyme_fwddiff((void *)cubes, enzyme_dup, x, v),
                3 * x[i] * x[i], RTOL_EXACT, ATOL_EXACT);
    check_close("forward d pairs / dx_i",
                __enzyme_fwddiff((void *)pairs, enzyme_dup, x, v), dp[i],
                RTOL_EXACT, ATOL_EXACT);
  }
  return check_done();
}
