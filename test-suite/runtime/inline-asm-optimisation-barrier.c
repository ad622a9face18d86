// Assembly that libraries write around floating-point code. An empty
// statement whose operands are tied in and out (Eigen's
// EIGEN_OPTIMIZATION_BARRIER, `__asm__("" : "+g,x"(X))`) computes nothing:
// each output is its input, for scalars and vectors, as a register or a
// memory operand. Single x86 instructions (Eigen's AVX pmadd as
// vfmadd231pd, pmin/pmax as vminpd/minpd/vmaxpd/maxpd) compute a fused
// multiply-add or a compare and select. Eigen with -march stopped at both
// ('inline assembly'). Both modes, against analytic values.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O3 -march=x86-64-v3 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O0 -march=x86-64-v3 %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef double v4d __attribute__((vector_size(32)));

/* x^2 through a memory-or-register barrier, times sin x. */
__attribute__((noinline)) double scalar_barrier(double x) {
  double y = x * x;
  __asm__("" : "+g,x"(y));
  return y * sin(x);
}

/* Two tied operands in one statement, one in a register. */
__attribute__((noinline)) double two_operands(double x, double z) {
  double a = x * z, b = x + z;
  __asm__("" : "+x"(a), "+x"(b));
  return a * b;
}

/* A vector through the barrier (Eigen's packets with AVX). */
__attribute__((noinline)) double vector_barrier(const double *x) {
  v4d v = {x[0], x[1], x[2], x[3]};
  v4d w = v * v;
  __asm__("" : "+g,x"(w));
  return w[0] + 2 * w[1] + 3 * w[2] + 4 * w[3];
}

#ifdef __AVX2__
typedef double v2d __attribute__((vector_size(16)));

/* sum of a * b + c through vfmadd231pd, as Eigen's pmadd writes it. */
__attribute__((noinline)) double fused(const double *x) {
  v4d a = {x[0], x[1], x[2], x[3]}, b = {x[4], x[5], x[6], x[7]};
  v4d c = {x[8], x[9], x[10], x[11]};
  __asm__("vfmadd231pd %[a], %[b], %[c]" : [c] "+x"(c) : [a] "x"(a),
          [b] "x"(b));
  return c[0] + c[1] + c[2] + c[3];
}

/* min and max of two packets, three-operand AVX and two-operand SSE. */
__attribute__((noinline)) double min_max(const double *x) {
  v4d a = {x[0], x[1], x[2], x[3]}, b = {x[4], x[5], x[6], x[7]}, lo, hi;
  __asm__("vminpd %[a], %[b], %[res]" : [res] "=x"(lo) : [a] "x"(a),
          [b] "x"(b));
  __asm__("vmaxpd %[a], %[b], %[res]" : [res] "=x"(hi) : [a] "x"(a),
          [b] "x"(b));
  v2d p = {x[0], x[1]}, q = {x[4], x[5]};
  __asm__("minpd %[a], %[res]" : [res] "+x"(p) : [a] "x"(q));
  return lo[0] + 2 * lo[1] + 3 * lo[2] + 4 * lo[3] + 5 * hi[0] + 6 * hi[1] +
         7 * hi[2] + 8 * hi[3] + 9 * p[0] + 10 * p[1];
}

static void check_instructions(void) {
  double x[12], dx[12] = {0};
  for (int i = 0; i < 12; ++i)
    x[i] = 0.25 * i - 1.1 + (i % 3) * 0.7;
  __enzyme_autodiff((void *)fused, enzyme_dup, x, dx);
  for (int i = 0; i < 4; ++i) {
    check_close("fma d/da", dx[i], x[4 + i], RTOL_EXACT, ATOL_EXACT);
    check_close("fma d/db", dx[4 + i], x[i], RTOL_EXACT, ATOL_EXACT);
    check_close("fma d/dc", dx[8 + i], 1, RTOL_EXACT, ATOL_EXACT);
  }
  double dm[12] = {0}, expect[12] = {0};
  __enzyme_autodiff((void *)min_max, enzyme_dup, x, dm);
  for (int i = 0; i < 4; ++i) {
    int b_is_lower = x[4 + i] < x[i];
    expect[b_is_lower ? 4 + i : i] += i + 1;
    expect[x[4 + i] > x[i] ? 4 + i : i] += i + 5;
  }
  for (int i = 0; i < 2; ++i)
    expect[x[i] < x[4 + i] ? i : 4 + i] += 9 + i;
  for (int i = 0; i < 12; ++i) {
    check_close("min/max gradient", dm[i], expect[i], RTOL_EXACT,
                ATOL_EXACT);
    double t[12] = {0};
    t[i] = 1;
    check_close("min/max tangent",
                __enzyme_fwddiff((void *)min_max, enzyme_dup, x, t),
                expect[i], RTOL_EXACT, ATOL_EXACT);
  }
}
#endif

int main(void) {
#ifdef __AVX2__
  check_instructions();
#endif
  double x = 0.7, z = 1.3;
  double dx = __enzyme_autodiff((void *)scalar_barrier, x);
  double expect = 2 * x * sin(x) + x * x * cos(x);
  check_close("scalar gradient", dx, expect, RTOL_EXACT, ATOL_EXACT);
  check_close("scalar tangent",
              __enzyme_fwddiff((void *)scalar_barrier, x, 1.0), expect,
              RTOL_EXACT, ATOL_EXACT);

  /* d/dx (xz (x + z)) = z (x + z) + xz */
  check_close("two operands tangent",
              __enzyme_fwddiff((void *)two_operands, x, 1.0, enzyme_const, z),
              z * (x + z) + x * z, RTOL_EXACT, ATOL_EXACT);

  double v[4] = {0.5, -1.5, 2.0, 0.25}, dv[4] = {0};
  __enzyme_autodiff((void *)vector_barrier, enzyme_dup, v, dv);
  for (int i = 0; i < 4; ++i) {
    check_close("vector gradient", dv[i], 2 * (i + 1) * v[i], RTOL_EXACT,
                ATOL_EXACT);
    double t[4] = {0};
    t[i] = 1;
    check_close("vector tangent",
                __enzyme_fwddiff((void *)vector_barrier, enzyme_dup, v, t),
                2 * (i + 1) * v[i], RTOL_EXACT, ATOL_EXACT);
  }
  return check_done();
}
