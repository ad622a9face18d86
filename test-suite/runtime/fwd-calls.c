// Calls in forward mode: helpers that are never inlined get tangent
// functions of their own (one per activity pattern: here a helper called
// with both arguments active and with one constant), a helper writes its
// result through a pointer, and recursion reuses the function being built.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) static double helper(double a, double b) { return a * sin(b); }

__attribute__((noinline)) static void into(double a, double *out) { *out = a * a + 1; }

__attribute__((noinline)) static double power(double x, int n) {
  if (n == 0)
    return 1;
  if (n % 2 == 0) {
    double h = power(x, n / 2);
    return h * h;
  }
  return x * power(x, n - 1);
}

static double f(double x, double y) {
  double t;
  into(x * y, &t);
  return helper(x, y) + helper(y, 0.3) + t + power(x, 7);
}

static double f_x(double x) { return f(x, -0.4); }
static double f_y(double y) { return f(0.9, y); }

int main(void) {
  double x = 0.9, y = -0.4;
  double dx = __enzyme_fwddiff((void *)f, x, 1.0, y, 0.0);
  double dy = __enzyme_fwddiff((void *)f, x, 0.0, y, 1.0);
  check_grad("d/dx", dx, sin(y) + 2 * x * y * y + 7 * pow(x, 6), fd_diff1(f_x, x));
  check_grad("d/dy", dy, x * cos(y) + sin(0.3) + 2 * x * x * y, fd_diff1(f_y, y));
  return check_done();
}
