// The float forms of the elementary functions: sinf cosf tanf asinf acosf
// atanf sinhf coshf tanhf expf exp2f expm1f logf log2f log10f log1pf sqrtf
// cbrtf. Derivatives are computed in float; expectations in double.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

float __enzyme_autodiff(void *, float);

#define F(fn) static float f_##fn(float x) { return fn(x); }
F(sinf) F(cosf) F(tanf) F(asinf) F(acosf) F(atanf) F(sinhf) F(coshf) F(tanhf)
F(expf) F(exp2f) F(expm1f) F(logf) F(log2f) F(log10f) F(log1pf) F(sqrtf) F(cbrtf)

#define CHECK_F(fn, xf, d)                                                     \
  do {                                                                         \
    float x_ = (xf);                                                           \
    double x = x_;                                                             \
    check_close(#fn, __enzyme_autodiff((void *)f_##fn, x_), (d), 1e-5, 1e-6); \
  } while (0)

int main(void) {
  const float xs[2] = {0.3f, 0.85f};
  for (int i = 0; i < 2; i++) {
    CHECK_F(sinf, xs[i], cos(x));
    CHECK_F(cosf, xs[i], -sin(x));
    CHECK_F(tanf, xs[i], 1 / (cos(x) * cos(x)));
    CHECK_F(asinf, xs[i], 1 / sqrt(1 - x * x));
    CHECK_F(acosf, xs[i], -1 / sqrt(1 - x * x));
    CHECK_F(atanf, xs[i], 1 / (1 + x * x));
    CHECK_F(sinhf, -xs[i], cosh(x));
    CHECK_F(coshf, -xs[i], sinh(x));
    CHECK_F(tanhf, -xs[i], 1 - tanh(x) * tanh(x));
    CHECK_F(expf, xs[i], exp(x));
    CHECK_F(exp2f, xs[i], log(2.0) * exp2(x));
    CHECK_F(expm1f, xs[i], exp(x));
    CHECK_F(logf, xs[i], 1 / x);
    CHECK_F(log2f, xs[i], 1 / (x * log(2.0)));
    CHECK_F(log10f, xs[i], 1 / (x * log(10.0)));
    CHECK_F(log1pf, xs[i], 1 / (1 + x));
    CHECK_F(sqrtf, xs[i], 0.5 / sqrt(x));
    CHECK_F(cbrtf, xs[i], 1 / (3 * cbrt(x) * cbrt(x)));
  }
  return check_done();
}
