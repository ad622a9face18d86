// Regression test (found by scripts/fuzz, seed 990104): a value computed
// from an active input whose derivative reaches nothing (unused, as an
// unused `sqrt(-x)` stays at -O0 and, because of errno, at -O2; only
// compared; only converted to an integer; only used by such values) has a
// zero adjoint. The reverse pass multiplied that zero by the value's
// partial derivative, and where the partial is infinite (`sqrt` and `log`
// at 0, `pow` with a negative exponent at 0, `1/x` at 0) the product was
// NaN, which made the whole gradient NaN. Expected: the gradient of what
// the function returns, as if the values were not there. Reverse and
// forward mode, against the analytic derivative and central differences,
// at -O0 and -O2.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

int Sink;

// Unused: sqrt and log of a value that is exactly 0 at every input.
double unused(double a) {
  double z = a - a;
  double t = sqrt(-z);
  (void)t;
  double u = log(z);
  (void)u;
  return a * a;
}

// Only compared, and only converted to an integer (an index).
double comparedAndIndexed(double a) {
  double z = a - a;
  double r = 1.0 / z; // +inf: its partial is -inf
  double s = sqrt(z);
  double w = pow(z, -0.5);
  if (s > 1.0 || w < 0.0)
    Sink = 1;
  Sink += (int)(s * 2.0);
  return r > 0 ? sin(a) : cos(a);
}

// A dead chain in a loop: each value feeds only the next, none the result.
double deadChain(double a, int n) {
  double z = a - a, acc = a;
  for (int i = 0; i < n; ++i) {
    double d = sqrt(z) * log(z + 0.0);
    double e = d * d + 1.0;
    (void)e;
    acc = acc * a;
  }
  return acc;
}

// A helper, not inlined, whose result is unused: its derivative at 0 is
// infinite.
__attribute__((noinline)) double root(double v) { return sqrt(v); }
double unusedCall(double a) {
  root(a - a);
  return 3 * a;
}

static double deadChain3(double a) { return deadChain(a, 3); }

static void check(const char *name, double (*f)(double), double a,
                  double expected) {
  double h = 1e-6;
  check_grad(name, __enzyme_autodiff((void *)f, a), expected,
             (f(a + h) - f(a - h)) / (2 * h));
  check_close(name, __enzyme_fwddiff((void *)f, a, 1.0), expected, 1e-12,
              1e-13);
}

int main(void) {
  double a = 0.7;
  check("unused", unused, a, 2 * a);
  check("compared and indexed", comparedAndIndexed, a, cos(a));
  check("dead chain", deadChain3, a, 4 * a * a * a);
  check("unused call", unusedCall, a, 3);
  return check_done();
}
