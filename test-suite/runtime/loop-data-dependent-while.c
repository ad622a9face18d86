// A while loop whose trip count depends on the data: Newton's iteration for
// sqrt(a), run until the step is negligible. d sqrt(a)/da = 1/(2 sqrt(a)).
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O3 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

double newton_sqrt(double a) {
  double x = a > 1 ? a : 1.0, prev;
  int it = 0;
  do {
    prev = x;
    x = 0.5 * (x + a / x);
  } while (fabs(x - prev) > 1e-15 * x && ++it < 200);
  return x;
}

int main(void) {
  const double as[3] = {2.0, 0.3, 1e4};
  for (int i = 0; i < 3; i++) {
    double a = as[i];
    check_grad_at("d/da", a, __enzyme_autodiff((void *)newton_sqrt, a), 0.5 / sqrt(a),
                  fd_diff1(newton_sqrt, a));
  }
  return check_done();
}
