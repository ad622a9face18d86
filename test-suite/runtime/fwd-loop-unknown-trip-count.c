// Forward mode through loops whose trip count depends on the data: the
// tangent code runs alongside the primal in the same loop, so it needs no
// tape and no trip count. A Newton iteration for sqrt(a) (stops when the
// step is small) and a series summed until its terms vanish.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);

/* Newton for y^2 = a from y = a: the tangent converges to d sqrt(a)/da. */
static double newton_sqrt(double a) {
  double y = a;
  double step;
  do {
    double next = 0.5 * (y + a / y);
    step = fabs(next - y);
    y = next;
  } while (step > 1e-15 * a);
  return y;
}

/* exp(x) by its series, summed while the terms matter. */
static double series_exp(double x) {
  double term = 1, sum = 1;
  for (int k = 1; fabs(term) > 1e-17 * fabs(sum); ++k) {
    term *= x / k;
    sum += term;
  }
  return sum;
}

int main(void) {
  for (double a = 0.5; a < 40; a *= 3.1) {
    double t = __enzyme_fwddiff((void *)newton_sqrt, a, 1.0);
    check_grad_at("newton sqrt", a, t, 0.5 / sqrt(a), fd_diff1(newton_sqrt, a));
    check_close("newton sqrt (vs reverse)", t, __enzyme_autodiff((void *)newton_sqrt, a),
                1e-12, 1e-14);
  }
  for (double x = -2.5; x < 3; x += 1.1) {
    double t = __enzyme_fwddiff((void *)series_exp, x, 1.0);
    check_grad_tol("series exp", t, exp(x), fd_diff1(series_exp, x), 1e-12);
  }
  return check_done();
}
