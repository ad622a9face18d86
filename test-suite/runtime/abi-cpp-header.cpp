// <enzyme/enzyme.h> works from C++ (extern "C" marker declarations), with
// an extern "C" prototype and the function cast to void*.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include <enzyme/enzyme.h>
#include "Inputs/check.h"

extern "C" double __enzyme_autodiff(void *, ...);

static double f(double x, double c) { return c * log(x) + x; }
static double f_c(double x) { return f(x, 0.75); }

int main() {
  double x = 2.2, c = 0.75;
  double g = __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_const, c);
  check_grad("d/dx", g, c / x + 1, fd_diff1(f_c, x));
  return check_done();
}
