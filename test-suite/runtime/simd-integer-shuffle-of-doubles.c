// Doubles broadcast with SSE2's integer shuffle (_mm_shuffle_epi32 on the
// bits of a __m128d, as Eigen's GEMM kernel broadcasts its packed right-hand
// side): the bits travel as <4 x i32> between a vector load and a bitcast
// back to <2 x double>. Their derivatives must travel with them (they were
// silently zero). Both modes, against the analytic gradient.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"
#include <emmintrin.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static __m128d dup_low(__m128d v) {
  return _mm_castsi128_pd(_mm_shuffle_epi32(_mm_castpd_si128(v), 0x44));
}
static __m128d dup_high(__m128d v) {
  return _mm_castsi128_pd(_mm_shuffle_epi32(_mm_castpd_si128(v), 0xEE));
}

/* sum over k of a_k * b_k * (c_k + 2 d_k), with (a, b) = x[2k..], (c, d) =
 * x[4 + 2k..]. */
__attribute__((noinline)) double broadcast_products(const double *x) {
  __m128d s = _mm_setzero_pd();
  for (int k = 0; k < 2; ++k) {
    __m128d ab = _mm_loadu_pd(x + 2 * k);
    __m128d cd = _mm_loadu_pd(x + 4 + 2 * k);
    s = _mm_add_pd(s, _mm_mul_pd(_mm_mul_pd(dup_low(ab), cd), dup_high(ab)));
  }
  return s[0] + 2 * s[1];
}

int main(void) {
  double x[8], g[8] = {0};
  for (int i = 0; i < 8; ++i)
    x[i] = 0.4 + 0.13 * i;
  __enzyme_autodiff((void *)broadcast_products, enzyme_dup, x, g);
  double expect[8];
  for (int k = 0; k < 2; ++k) {
    double a = x[2 * k], b = x[2 * k + 1], c = x[4 + 2 * k], d = x[5 + 2 * k];
    expect[2 * k] = b * (c + 2 * d);
    expect[2 * k + 1] = a * (c + 2 * d);
    expect[4 + 2 * k] = a * b;
    expect[5 + 2 * k] = 2 * a * b;
  }
  for (int i = 0; i < 8; ++i) {
    check_close("gradient", g[i], expect[i], RTOL_EXACT, ATOL_EXACT);
    double v[8] = {0};
    v[i] = 1;
    check_close("tangent", __enzyme_fwddiff((void *)broadcast_products,
                                            enzyme_dup, x, v),
                expect[i], RTOL_EXACT, ATOL_EXACT);
  }
  return check_done();
}
