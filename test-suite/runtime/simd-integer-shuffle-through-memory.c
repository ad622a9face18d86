// Doubles broadcast with SSE2's integer shuffle and stored as integers
// (Eigen's GEMM kernel, when a helper is not inlined: the packed right-hand
// side is loaded as <4 x i32>, shuffled, and stored into a caller's packet
// that is read back as <2 x double>). No bitcast names the type on the way;
// the memory does (the caller's packet is read as doubles). Derivatives were
// silently dropped at the integer store: wrong gradients under
// -fsanitize=alignment, which keeps Eigen's helpers from being inlined.
// Both modes, against the analytic gradient.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 -fsanitize=address,undefined \
// RUN:   -fno-sanitize-recover=all %s -o %t -lm && %t
#include "Inputs/check.h"
#include <emmintrin.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

/* Broadcasts each of the two doubles at src into a packet of its own. */
__attribute__((noinline)) static void broadcast(const double *src, __m128d *lo,
                                                __m128d *hi) {
  __m128i bits = _mm_loadu_si128((const __m128i *)src);
  _mm_store_si128((__m128i *)lo, _mm_shuffle_epi32(bits, 0x44));
  _mm_store_si128((__m128i *)hi, _mm_shuffle_epi32(bits, 0xEE));
}

/* sum over k of a_k * (c_k + 2 d_k) + b_k * (3 c_k + d_k), with (a, b) =
 * x[2k..], (c, d) = x[4 + 2k..]. */
__attribute__((noinline)) double broadcast_products(const double *x) {
  __m128d s = _mm_setzero_pd();
  for (int k = 0; k < 2; ++k) {
    __m128d a, b;
    broadcast(x + 2 * k, &a, &b);
    __m128d cd = _mm_loadu_pd(x + 4 + 2 * k);
    __m128d w = _mm_set_pd(1, 3); /* (3, 1) in lanes (0, 1) */
    s = _mm_add_pd(
        s, _mm_add_pd(_mm_mul_pd(a, cd), _mm_mul_pd(_mm_mul_pd(b, cd), w)));
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
    expect[2 * k] = c + 2 * d;
    expect[2 * k + 1] = 3 * c + 2 * d;
    expect[4 + 2 * k] = a + 3 * b;
    expect[5 + 2 * k] = 2 * a + 2 * b;
  }
  for (int i = 0; i < 8; ++i) {
    check_close("gradient", g[i], expect[i], RTOL_EXACT, ATOL_EXACT);
    double v[8] = {0};
    v[i] = 1;
    check_close("tangent",
                __enzyme_fwddiff((void *)broadcast_products, enzyme_dup, x, v),
                expect[i], RTOL_EXACT, ATOL_EXACT);
  }
  return check_done();
}
