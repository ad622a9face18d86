// A local (stack) array filled by a recurrence and read back.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

enum { N = 10 };

double f(double x) {
  double a[N];
  a[0] = x;
  for (int i = 1; i < N; i++)
    a[i] = sin(a[i - 1]) + x;
  double s = 0;
  for (int i = 0; i < N; i++)
    s += a[i] * a[i];
  return s;
}

/* The hand-written tangent of the same recurrence. */
static double df(double x) {
  double a = x, da = 1, s = a * a, ds = 2 * a * da;
  for (int i = 1; i < N; i++) {
    da = cos(a) * da + 1;
    a = sin(a) + x;
    ds += 2 * a * da;
  }
  (void)s;
  return ds;
}

int main(void) {
  const double xs[2] = {0.4, -1.2};
  for (int i = 0; i < 2; i++) {
    double x = xs[i];
    check_grad_at("d/dx", x, __enzyme_autodiff((void *)f, x), df(x), fd_diff1(f, x));
  }
  return check_done();
}
