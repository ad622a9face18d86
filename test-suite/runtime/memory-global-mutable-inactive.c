// Mutable globals used only inactively: a call counter that is incremented,
// and a scale factor that is only read. d/dx (scale x^2) = 2 scale x, and
// neither global is corrupted.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

static int calls;
static double scale = 3.0;

double f(double x) {
  calls++;
  return scale * x * x;
}

int main(void) {
  double x = 0.7;
  double g = __enzyme_autodiff((void *)f, x);
  check_close("d/dx", g, 2 * 3.0 * x, RTOL_EXACT, ATOL_EXACT);
  check_close("scale unchanged", scale, 3.0, 0.0, 0.0);
  scale = 0.5;
  g = __enzyme_autodiff((void *)f, x);
  check_close("d/dx after scale changed", g, 2 * 0.5 * x, RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
