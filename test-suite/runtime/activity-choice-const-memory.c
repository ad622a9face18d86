// A pointer that chooses between memory with derivatives (enzyme_dup) and
// memory without (an enzyme_const argument, a constant table), which the
// program only reads through. The optimiser merges `k ? x[1] : c[0]` into
// one load through `select k, &x[1], &c[0]`, and the prepared copy of
// `const double *p = k ? w : c;` is such a select at every level. There is
// no shadow for the constant side and no size for a zeroed one; the reads
// are split by the choice instead (Modes/ChoiceSplitting.h). This was an
// error ('a pointer that chooses between memory with derivatives and memory
// without'); before that, a null shadow and a crash (C fuzzer seeds 864,
// 873). Both modes, both sides of each choice, against analytic values.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O1 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O3 -march=x86-64-v3 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 -fsanitize=address,undefined \
// RUN:   -fno-sanitize-recover=all %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { N = 5 };

/* x0 * (c1 < 0 ? x1 : c0): one load through a select at -O1 and up. */
__attribute__((noinline)) double merged_load(const double *c, const double *x) {
  return x[0] * (c[1] < 0 ? x[1] : c[0]);
}

/* sum p[i] * w[i] with p chosen before the loop. */
__attribute__((noinline)) double chosen_row(const double *w, const double *c,
                                            int k) {
  const double *p = k > 0 ? w : c;
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += p[i] * w[i];
  return s;
}

/* The same through if/else (a phi of pointers), and sin of the reads. */
__attribute__((noinline)) double chosen_in_branches(const double *w,
                                                    const double *c, int k) {
  const double *p;
  if (k > 0)
    p = w + 1;
  else
    p = c;
  double s = 0;
  for (int i = 0; i + 1 < N; ++i)
    s += sin(p[i]) * w[i];
  return s;
}

static const double table[N] = {0.5, -1.25, 2.0, 0.75, 1.5};

/* A constant table with floats on one side. */
__attribute__((noinline)) double table_or_input(const double *w, int k) {
  const double *p = k ? table : w;
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += p[i] * p[i] * w[i];
  return s;
}

static void check_gradient(const char *what, const double *g,
                           const double *expect, int n) {
  for (int i = 0; i < n; ++i)
    check_close(what, g[i], expect[i], RTOL_EXACT, ATOL_EXACT);
}

int main(void) {
  double w[N], c[N];
  for (int i = 0; i < N; ++i) {
    w[i] = 0.3 + 0.21 * i;
    c[i] = 1.1 - 0.37 * i;
  }

  for (int side = 0; side < 2; ++side) {
    double cc[2] = {2.0, side ? -3.0 : 3.0}, x[2] = {3.0, 5.0};
    double dx[2] = {0, 0};
    __enzyme_autodiff((void *)merged_load, enzyme_const, cc, enzyme_dup, x, dx);
    double expect[2] = {side ? x[1] : cc[0], side ? x[0] : 0};
    check_gradient("merged_load", dx, expect, 2);
    double v[2] = {0.5, -2.0};
    check_close("merged_load tangent",
                __enzyme_fwddiff((void *)merged_load, enzyme_const, cc,
                                 enzyme_dup, x, v),
                expect[0] * v[0] + expect[1] * v[1], RTOL_EXACT, ATOL_EXACT);
  }

  for (int k = 0; k < 2; ++k) {
    double dw[N] = {0}, expect[N];
    __enzyme_autodiff((void *)chosen_row, enzyme_dup, w, dw, enzyme_const, c,
                      k);
    for (int i = 0; i < N; ++i)
      expect[i] = k ? 2 * w[i] : c[i];
    check_gradient("chosen_row", dw, expect, N);

    double dw2[N] = {0}, expect2[N] = {0};
    __enzyme_autodiff((void *)chosen_in_branches, enzyme_dup, w, dw2,
                      enzyme_const, c, k);
    for (int i = 0; i + 1 < N; ++i) {
      double p = k ? w[i + 1] : c[i];
      expect2[i] += sin(p);
      if (k)
        expect2[i + 1] += cos(p) * w[i];
    }
    check_gradient("chosen_in_branches", dw2, expect2, N);

    double dw3[N] = {0}, expect3[N];
    __enzyme_autodiff((void *)table_or_input, enzyme_dup, w, dw3, k);
    for (int i = 0; i < N; ++i)
      expect3[i] = k ? table[i] * table[i] : 3 * w[i] * w[i];
    check_gradient("table_or_input", dw3, expect3, N);

    for (int i = 0; i < N; ++i) {
      double v[N] = {0};
      v[i] = 1;
      check_close("chosen_row tangent",
                  __enzyme_fwddiff((void *)chosen_row, enzyme_dup, w, v,
                                   enzyme_const, c, k),
                  expect[i], RTOL_EXACT, ATOL_EXACT);
      check_close("chosen_in_branches tangent",
                  __enzyme_fwddiff((void *)chosen_in_branches, enzyme_dup, w, v,
                                   enzyme_const, c, k),
                  expect2[i], RTOL_EXACT, ATOL_EXACT);
      check_close("table_or_input tangent",
                  __enzyme_fwddiff((void *)table_or_input, enzyme_dup, w, v, k),
                  expect3[i], RTOL_EXACT, ATOL_EXACT);
    }
  }
  return check_done();
}
