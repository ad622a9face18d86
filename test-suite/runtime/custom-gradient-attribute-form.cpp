// The attribute form of a custom gradient, on a declaration (as in the
// slides), and the attribute form of an inactive function, in C++. The
// registered gradient is the body's derivative plus 1, so a gradient that
// differentiated the body instead would be caught.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"

template <typename R, typename... Args> R __enzyme_autodiff(Args...);

double aug_cube(double x);
double rev_cube(double x, double dret);

__attribute__((enzyme("augment", aug_cube)))
__attribute__((enzyme("gradient", rev_cube))) double cube(double x);

double aug_cube(double x) { return cube(x); }
double rev_cube(double x, double dret) { return dret * (3 * x * x + 1); }

__attribute__((enzyme_inactive)) double noise(double x) { return 0.001 * x; }

double f(double x) { return cube(x) * 2 + noise(x) * x; }

int main() {
  double x = 1.4;
  // cube' := 3x^2 + 1; noise(x) = c is a constant for the derivative.
  check_close("custom + inactive", __enzyme_autodiff<double>((void *)f, x),
              2 * (3 * x * x + 1) + 0.001 * x, RTOL_EXACT, ATOL_EXACT);
  return check_done();
}

// The definition, in a part of the program the request does not look at.
double cube(double x) { return x * x * x; }
