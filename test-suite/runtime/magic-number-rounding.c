// Regression test: math code that rounds a float to an integer by adding
// and subtracting a constant whose ulp is 1, `(y + 0x1.8p52) - 0x1.8p52`,
// as libm-style range reductions do (here a sine and an exponential). The
// rounded value is piecewise constant, but read operation by operation it
// has y's derivative: the reduced argument x - k pi/2 got the derivative 0
// instead of 1, and the gradients were silently wrong (0.0002 where cos x
// is right). Now the difference is marked as the rounding it is
// (Modes/MagicRounding.h). Central differences and analytic values, -O0
// and -O2, reverse and forward mode.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t.O0 -lm && %t.O0 | FileCheck %s
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t.O2 -lm && %t.O2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include <math.h>
#include <stdio.h>

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

static int Failures;
static void check(const char *Name, double Got, double Want, double Tol) {
  int Ok = fabs(Got - Want) <= Tol * (1 + fabs(Want));
  printf("%s %s: got %.10g, expected %.10g\n", Ok ? "PASS" : "FAIL", Name, Got,
         Want);
  Failures += !Ok;
}

int main(void) {
  for (double x = -2.3; x < 2.5; x += 0.7) {
    double Want = 3 * cos(3 * x) * x + sin(3 * x);
    double H = 1e-6;
    double Fd = (model(x + H) - model(x - H)) / (2 * H);
    check("reverse against analytic", __enzyme_autodiff((void *)model, x),
          Want, 1e-7);
    check("reverse against differences", __enzyme_autodiff((void *)model, x),
          Fd, 1e-6);
    check("forward", __enzyme_fwddiff((void *)model, x, 1.0), Want, 1e-7);
    float xf = (float)x;
    double WantF = exp(xf) * (1 + xf);
    check("float exp, reverse",
          __enzyme_autodiff_f((void *)modelF, xf), WantF, 1e-5);
  }
  printf("%s\n", Failures ? "some checks failed" : "all checks passed");
  return Failures != 0;
}
