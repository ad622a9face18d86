// 5000 iterations of a nonlinear recurrence: every iterate is needed in the
// reverse pass. The expectation is the hand-written tangent recurrence.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

enum { STEPS = 5000 };

/* y' = a - y sin(y), relaxed with step 1e-3 from y = 0. */
double f(double a) {
  double y = 0;
  for (int k = 0; k < STEPS; k++)
    y = y + 1e-3 * (a - y * sin(y));
  return y;
}

static double tangent(double a) {
  double y = 0, dy = 0;
  for (int k = 0; k < STEPS; k++) {
    dy = dy + 1e-3 * (1 - dy * sin(y) - y * cos(y) * dy);
    y = y + 1e-3 * (a - y * sin(y));
  }
  return dy;
}

int main(void) {
  const double as[2] = {0.5, 2.0};
  for (int i = 0; i < 2; i++) {
    double a = as[i];
    check_grad_tol("d/da", __enzyme_autodiff((void *)f, a), tangent(a), fd_diff1(f, a), 1e-10);
  }
  return check_done();
}
