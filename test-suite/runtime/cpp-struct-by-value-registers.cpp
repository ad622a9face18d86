// Structs passed and returned by value whose floats travel in float
// registers on x86-64 ({double, int} as a double and an int, {float, float}
// as <2 x float>, {float, float, float} as <2 x float> and a float) carry
// their derivatives across the call, in reverse and forward mode. Structs
// that do not mix floats into integers pass without an error beside active
// data: a pair of ints, and an {float, int} result of which the caller uses
// only the int (an argmax). Floats packed into an integer with an int:
// test-suite/runtime/cpp-struct-mixed-float-int.cpp.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"

extern "C" {
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

struct Scaled {
  double factor;
  int count;
};
struct Pair {
  float a, b;
};
struct Triple {
  float a, b, c;
};
struct Range {
  int begin, end;
};
struct Best {
  float value;
  int index;
};

__attribute__((noinline)) double sumScaled(Scaled s, const double *x) {
  double Sum = 0;
  for (int i = 0; i < s.count; ++i)
    Sum += s.factor * x[i] * x[i];
  return Sum;
}
__attribute__((noinline)) Scaled makeScaled(double f) { return {f * f, 3}; }
__attribute__((noinline)) float dot(Pair p, Triple t) {
  return p.a * t.a + p.b * t.b + t.c * t.c;
}
__attribute__((noinline)) Pair swapScale(Pair p, float s) {
  return {p.b * s, p.a * s};
}
__attribute__((noinline)) double partial(Range r, const double *x) {
  double Sum = 0;
  for (int i = r.begin; i < r.end; ++i)
    Sum += x[i] * x[i] * x[i];
  return Sum;
}
__attribute__((noinline)) Best argmax(const double *x, int n) {
  Best B{(float)x[0], 0};
  for (int i = 1; i < n; ++i)
    if (x[i] > B.value)
      B = {(float)x[i], i};
  return B;
}

// f(c, x) = sum_{i<3} c^2 x_i^2 + dot + x_1^3 + x_2^3 + 5 x_argmax
static double f(double c, const double *x) {
  Scaled S = makeScaled(c);
  double Total = sumScaled(S, x);
  Pair P = swapScale(Pair{(float)x[0], (float)c}, 2.0f);
  Total += dot(P, Triple{(float)x[1], (float)x[2], (float)c});
  Total += partial(Range{1, 3}, x);
  Total += 5 * x[argmax(x, 3).index];
  return Total;
}

static double X[3] = {0.5, -1.25, 2.0};
static double fOfC(double c) { return f(c, X); }
static double C = 0.75;
static double fOfX(double xi, int i) {
  double Y[3] = {X[0], X[1], X[2]};
  Y[i] = xi;
  return f(C, Y);
}

int main() {
  // Analytic: dF/dc = 2c * sum x_i^2 + d/dc[2c x1 + 2 x0 x2 + c^2]
  //                 = 2c * sum x_i^2 + 2 x1 + 2c.
  double SumSq = X[0] * X[0] + X[1] * X[1] + X[2] * X[2];
  double dC = 2 * C * SumSq + 2 * X[1] + 2 * C;
  // dF/dx_i = 2 c^2 x_i + [dot] + 3 x_i^2 [i > 0] + 5 [i == argmax = 2].
  double dX[3] = {2 * C * C * X[0] + 2 * X[2],
                  2 * C * C * X[1] + 2 * C + 3 * X[1] * X[1],
                  2 * C * C * X[2] + 2 * X[0] + 3 * X[2] * X[2] + 5};
  double Grad[3] = {0, 0, 0};
  double GotC = __enzyme_autodiff((void *)f, C, enzyme_dup, X, Grad);
  // The floats of Pair and Triple round the values to 7 digits, which a
  // finite difference of step 1e-6 would magnify: step 1e-3 (exact up to
  // the rounding for this cubic) and float tolerances.
  double H = 1e-3;
  check_close("df/dc", GotC, dC, 1e-6, 1e-6);
  check_close("df/dc (vs finite difference)", GotC,
              (fOfC(C + H) - fOfC(C - H)) / (2 * H), 1e-3, 1e-3);
  for (int i = 0; i < 3; ++i) {
    check_close("df/dx", Grad[i], dX[i], 1e-6, 1e-6);
    check_close("df/dx (vs finite difference)", Grad[i],
                (fOfX(X[i] + H, i) - fOfX(X[i] - H, i)) / (2 * H), 1e-3, 1e-3);
  }
  // Forward mode, direction (1, 0.5, -1, 2) in (c, x).
  double Dir[3] = {0.5, -1, 2};
  double Tangent = __enzyme_fwddiff((void *)f, C, 1.0, enzyme_dup, X, Dir);
  double Expected = dC + dX[0] * Dir[0] + dX[1] * Dir[1] + dX[2] * Dir[2];
  check_close("tangent", Tangent, Expected, 1e-6, 1e-6);
  return check_done();
}
