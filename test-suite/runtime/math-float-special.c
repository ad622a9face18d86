// The float forms of fabsf erff erfcf lgammaf tgammaf floorf ceilf roundf
// truncf. Derivatives are computed in float; expectations in double.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

float __enzyme_autodiff(void *, float);

static float f_fabsf(float x) { return fabsf(x); }
static float f_erff(float x) { return erff(x); }
static float f_erfcf(float x) { return erfcf(x); }
static float f_lgammaf(float x) { return lgammaf(x); }
static float f_tgammaf(float x) { return tgammaf(x); }
static float f_floorf(float x) { return floorf(x) * x; }
static float f_ceilf(float x) { return ceilf(x) * x; }
static float f_roundf(float x) { return roundf(x) * x; }
static float f_truncf(float x) { return truncf(x) * x; }

#define CHECK_F(fn, xf, d)                                                     \
  do {                                                                         \
    float x_ = (xf);                                                           \
    double x = x_;                                                             \
    check_close(#fn, __enzyme_autodiff((void *)f_##fn, x_), (d), 1e-5, 1e-6); \
  } while (0)

int main(void) {
  const float xs[2] = {-1.25f, 2.375f};
  for (int i = 0; i < 2; i++) {
    CHECK_F(fabsf, xs[i], x > 0 ? 1.0 : -1.0);
    CHECK_F(erff, xs[i], 2 / sqrt(acos(-1.0)) * exp(-x * x));
    CHECK_F(erfcf, xs[i], -2 / sqrt(acos(-1.0)) * exp(-x * x));
    CHECK_F(lgammaf, xs[i], ref_digamma(x));
    CHECK_F(tgammaf, xs[i], tgamma(x) * ref_digamma(x));
    CHECK_F(floorf, xs[i], floor(x));
    CHECK_F(ceilf, xs[i], ceil(x));
    CHECK_F(roundf, xs[i], round(x));
    CHECK_F(truncf, xs[i], trunc(x));
  }
  return check_done();
}
