// Second derivatives of a scalar function by every pairing of modes:
// forward over forward, reverse over forward, forward over reverse and
// reverse over reverse, each against the analytic h''(x).
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O0 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_const;
double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);

double h(double x) { return exp(x) * sin(x); }

double dh_fwd(double x, double dx) { return __enzyme_fwddiff((void *)h, x, dx); }
double dh_rev(double x) { return __enzyme_autodiff((void *)h, x); }

int main(void) {
  double x = 0.4, want = 2 * exp(x) * cos(x);
  check_close("forward over forward",
              __enzyme_fwddiff((void *)dh_fwd, x, 1.0, 1.0, 0.0), want,
              RTOL_EXACT, ATOL_EXACT);
  check_close("reverse over forward",
              __enzyme_autodiff((void *)dh_fwd, x, enzyme_const, 1.0), want,
              RTOL_EXACT, ATOL_EXACT);
  check_close("forward over reverse", __enzyme_fwddiff((void *)dh_rev, x, 1.0),
              want, RTOL_EXACT, ATOL_EXACT);
  check_close("reverse over reverse", __enzyme_autodiff((void *)dh_rev, x), want,
              RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
