// A function registered with __enzyme_register_gradient is not
// differentiated: its registered pair is called instead, wherever the
// function is called inside differentiated code. The registered gradient
// here is deliberately not the body's derivative (3 instead of 2x), so a
// gradient that ignored the registration would be caught.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O3 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

// Not noinline: the registration alone keeps it a call.
double g(double x) { return x * x; }
static int aug_calls, rev_calls;
double aug_g(double x) { ++aug_calls; return x * x; }     // primal, no tape
double rev_g(double x, double dret) { ++rev_calls; return 3.0 * dret; }
void *__enzyme_register_gradient_g[3] = {(void *)g, (void *)aug_g, (void *)rev_g};

double f(double x) { return sin(g(x)) + g(2 * x); }

int main(void) {
  double x = 0.8;
  double d = __enzyme_autodiff((void *)f, x);
  // With g' := 3: d/dx sin(g(x)) = cos(x^2) * 3, d/dx g(2x) = 3 * 2.
  check_close("custom gradient used", d, cos(x * x) * 3.0 + 6.0, RTOL_EXACT,
              ATOL_EXACT);
#ifndef ENZYME_RT_SELFTEST
  check_close("augment called", aug_calls, 2, 0, 0);
  check_close("reverse called", rev_calls, 2, 0, 0);
#endif
  return check_done();
}
