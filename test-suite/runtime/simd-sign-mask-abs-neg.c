// Absolute values and negations written as bitwise operations on the bits of
// floats, the way SSE code does them (Eigen's pabs is _mm_and_pd with a mask
// of every bit but the sign, its pnegate _mm_xor_pd with the sign bit): at
// -O0 they stay `and`/`xor`/`or` of <2 x i64> (or i64) between bitcasts,
// which the engine refused ("floats whose bits ... are moved as integers
// with operations that split or mix them"); they are fabs, fneg and
// -fabs. Float vectors (<4 x float> masked as <4 x i32>) and a scalar
// double masked as a 64-bit integer too. Reverse mode against analytic
// derivatives and finite differences, forward mode against reverse, at
// -O0 and -O2. Under the sanitizers at -O2 the negations are `xor` of a
// lane extracted from a <2 x i64> load, read back as a double: the lane
// moves as a double (it was the same error).
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t -lm && %t
#include "Inputs/check.h"
#include <emmintrin.h>
#include <stdint.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static double scalar_abs(double v) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  bits &= ~(UINT64_C(1) << 63);
  memcpy(&v, &bits, sizeof bits);
  return v;
}

/* 2|x0| + |x1|^2 - (-x2) x3 - |x3| + |x0| + |x1|^2, with the packet
 * operations and a scalar mask. */
double packets(const double *x) {
  __m128d a = _mm_loadu_pd(x);
  __m128d b = _mm_loadu_pd(x + 2);
  __m128d abs_mask = _mm_castsi128_pd(
      _mm_setr_epi32(0xFFFFFFFF, 0x7FFFFFFF, 0xFFFFFFFF, 0x7FFFFFFF));
  __m128d sign = _mm_set1_pd(-0.0);
  __m128d abs_a = _mm_and_pd(a, abs_mask);
  __m128d neg_b = _mm_xor_pd(b, sign);
  __m128d nabs_b = _mm_or_pd(b, sign);
  double out[2], neg[2], nabs[2];
  _mm_storeu_pd(out, abs_a);
  _mm_storeu_pd(neg, neg_b);
  _mm_storeu_pd(nabs, nabs_b);
  double s = scalar_abs(x[1]);
  return 2 * out[0] + out[1] * out[1] - neg[0] * x[3] + nabs[1] + out[0] +
         s * s;
}

/* sum of (k + 1) |x_k| over four floats. */
float float_packets(const float *x) {
  __m128 fabs_mask = _mm_castsi128_ps(_mm_set1_epi32(0x7FFFFFFF));
  float fo[4];
  _mm_storeu_ps(fo, _mm_and_ps(_mm_loadu_ps(x), fabs_mask));
  return fo[0] + 2 * fo[1] + 3 * fo[2] + 4 * fo[3];
}

static double sgn(double v) { return v < 0 ? -1.0 : 1.0; }

static double packets_fd(const double *x, void *unused) {
  (void)unused;
  return packets(x);
}

int main(void) {
  double x[4] = {-0.75, 1.25, -2.0, 0.5};
  double d[4] = {0, 0, 0, 0};
  __enzyme_autodiff((void *)packets, enzyme_dup, x, d);
  /* 2|x0| + x1^2 + x2 x3 - |x3| + |x0| + x1^2 */
  double expect[4] = {3 * sgn(x[0]), 4 * x[1], x[3], x[2] - sgn(x[3])};
  for (int i = 0; i < 4; ++i) {
    double fd = fd_partial(packets_fd, x, 4, i, 0);
    check_grad_tol("packets", d[i], expect[i], fd, 1e-6);
    double dir[4] = {0, 0, 0, 0};
    dir[i] = 1;
    double t = __enzyme_fwddiff((void *)packets, enzyme_dup, x, dir);
    check_close("packets fwd", t, d[i], 1e-6, 1e-12);
  }
  float xf[4] = {-0.5f, 1.5f, -2.5f, 3.0f}, df[4] = {0, 0, 0, 0};
  __enzyme_autodiff((void *)float_packets, enzyme_dup, xf, df);
  for (int i = 0; i < 4; ++i)
    check_close("float_packets", df[i], (i + 1) * sgn(xf[i]), RTOL_EXACT,
                ATOL_EXACT);
  return check_done();
}
