// Regression test: math code that rounds a float to an integer by adding
// and subtracting a constant whose ulp is 1, `(y + 0x1.8p52) - 0x1.8p52`,
// as libm-style range reductions do (here a sine and an exponential). The
// rounded value is piecewise constant, but read operation by operation it
// has y's derivative: the reduced argument x - k pi/2 got the derivative 0
// instead of 1, and the gradients were silently wrong (-0.578 where -6.207
// is right, at -O0 and -O2). Now the difference is marked as the rounding it is
// (Modes/MagicRounding.h). Central differences and analytic values, -O0
// and -O2, reverse and forward mode.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern float __enzyme_autodiff_f(void *, ...) __asm__("__enzyme_autodiff");

static const double Magic = 6755399441055744.0; // 0x1.8p52
static const float MagicF = 12582912.0f;        // 0x1.8p23

// sin x: x = k pi/2 + r, |r| <= pi/4, and a polynomial on the quadrant.
__attribute__((noinline)) double reducedSin(double x) {
  double k = (x * 0.63661977236758134 + Magic) - Magic;
  double r = x - k * 1.5707963267948966;
  long q = (long)k & 3;
  double r2 = r * r;
  double s = r * (1 - r2 / 6 * (1 - r2 / 20 * (1 - r2 / 42 * (1 - r2 / 72))));
  double c = 1 - r2 / 2 * (1 - r2 / 12 * (1 - r2 / 30 * (1 - r2 / 56)));
  return q == 0 ? s : q == 1 ? c : q == 2 ? -s : -c;
}

// exp x = 2^n e^r with n = round(x / ln 2), in float with a fused step.
__attribute__((noinline)) float reducedExp(float x) {
  float n = __builtin_fmaf(x, 1.44269504f, MagicF) - MagicF;
  float r = x - n * 0.693147181f;
  float e = 1 + r * (1 + r / 2 * (1 + r / 3 * (1 + r / 4 * (1 + r / 5))));
  return ldexpf(e, (int)n);
}

double model(double x) { return reducedSin(3 * x) * x; }
float modelF(float x) { return reducedExp(x) * x; }

int main(void) {
  for (double x = -2.3; x < 2.5; x += 0.7) {
    // The polynomial is good to about 1e-9 against cos.
    double Want = 3 * cos(3 * x) * x + sin(3 * x);
    double Fd = fd_diff1(model, x);
    check_grad_tol("sine, reverse", __enzyme_autodiff((void *)model, x), Want,
                   Fd, 1e-7);
    check_grad_tol("sine, forward", __enzyme_fwddiff((void *)model, x, 1.0),
                   Want, Fd, 1e-7);
    float xf = (float)x;
    check_close("float exponential, reverse",
                __enzyme_autodiff_f((void *)modelF, xf), exp(xf) * (1 + xf),
                1e-4, 1e-6);
  }
  return check_done();
}
