// SIMD code in both modes: shufflevector (reversals, duplicates, mixing
// two vectors, widening and narrowing), extract/insert chains, and the
// reductions vectorised loops end with (fast-math sums, products, max).
// Gradients against analytic values (reductions) or central finite
// differences (shuffles); forward-mode tangents against the gradient.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O3 -ffast-math -march=x86-64-v3 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 -ffast-math -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef double v4 __attribute__((vector_size(32)));
typedef double v2 __attribute__((vector_size(16)));

enum { N = 64 };

/* Shuffles: reverse, duplicate, mix, narrow, widen. */
__attribute__((noinline)) double shuffles(const double *x) {
  v4 a = {x[0], x[1], x[2], x[3]};
  v4 b = {x[4], x[5], x[6], x[7]};
  v4 r = __builtin_shufflevector(a, a, 3, 2, 1, 0);
  v4 d = __builtin_shufflevector(a, b, 0, 0, 5, 5);
  v2 n = __builtin_shufflevector(b, b, 3, 1);
  v4 w = __builtin_shufflevector(n, n, 0, 1, 0, 1);
  v4 p = a * r + d * d + b * w;
  return p[0] + p[1] * 2 + p[2] * 3 + p[3] * 0.5;
}

static double shuffles_fd(const double *x, void *ctx) {
  (void)ctx;
  return shuffles(x);
}

/* Loops the vectoriser turns into reductions under fast-math. */
__attribute__((noinline)) double reductions(const double *x) {
  double s = 0, m = -1e300, q = 1;
  for (int i = 0; i < N; ++i) {
    s += x[i] * x[i];
    m = fmax(m, x[i] * 0.5);
    q *= 1 + 0.01 * x[i];
  }
  return s + 3 * m + q;
}

int main(void) {
  double x[N], g[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.3 + 0.07 * i - 0.001 * i * i;
  x[17] = 9.0; /* the maximum */

  for (int i = 0; i < N; ++i)
    g[i] = 0;
  __enzyme_autodiff((void *)shuffles, enzyme_dup, x, g);
  for (int i = 0; i < 8; ++i) {
    check_fd("shuffles gradient", g[i], fd_partial(shuffles_fd, x, 8, i, 0));
    double v[8] = {0};
    v[i] = 1;
    check_close("shuffles tangent = gradient",
                __enzyme_fwddiff((void *)shuffles, enzyme_dup, x, v), g[i],
                RTOL_EXACT, ATOL_EXACT);
  }

  for (int i = 0; i < N; ++i)
    g[i] = 0;
  __enzyme_autodiff((void *)reductions, enzyme_dup, x, g);
  double q = 1;
  for (int i = 0; i < N; ++i)
    q *= 1 + 0.01 * x[i];
  for (int i = 0; i < N; ++i) {
    double expect = 2 * x[i] + (i == 17 ? 1.5 : 0) + q / (1 + 0.01 * x[i]) * 0.01;
    check_close("reductions gradient", g[i], expect, 1e-10, 1e-12);
    if (i % 9 == 0 || i == 17) {
      double v[N] = {0};
      v[i] = 1;
      check_close("reductions tangent = gradient",
                  __enzyme_fwddiff((void *)reductions, enzyme_dup, x, v), g[i],
                  1e-10, 1e-12);
    }
  }
  return check_done();
}
