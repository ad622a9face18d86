// Fixed-point iteration x = 0.5 cos(x) + a until convergence. By the implicit
// function theorem dx*/da = 1 / (1 + 0.5 sin(x*)).
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

double fixed_point(double a) {
  double x = 0, next;
  for (int it = 0; it < 500; it++) {
    next = 0.5 * cos(x) + a;
    if (fabs(next - x) < 1e-16)
      break;
    x = next;
  }
  return next;
}

int main(void) {
  const double as[2] = {0.3, 1.0};
  for (int i = 0; i < 2; i++) {
    double a = as[i], xs = fixed_point(a);
    /* The iterates' derivative converges like the iterates: 1e-9 is ample. */
    check_grad_tol("dx*/da", __enzyme_autodiff((void *)fixed_point, a),
                   1 / (1 + 0.5 * sin(xs)), fd_diff1(fixed_point, a), 1e-9);
  }
  return check_done();
}
