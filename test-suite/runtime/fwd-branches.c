// Forward mode through branches, a switch and early returns: the tangent
// follows the branch the primal takes (phis of tangents at the joins).
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);

static double piecewise(double x) {
  if (x < -1)
    return -x * x;
  double y;
  if (x < 0.5)
    y = sin(x) * 3;
  else if (x < 2)
    y = x * x * x;
  else
    return log(x) + 8;
  return y + x;
}

static double dpiecewise(double x) {
  if (x < -1)
    return -2 * x;
  if (x < 0.5)
    return 3 * cos(x) + 1;
  if (x < 2)
    return 3 * x * x + 1;
  return 1 / x;
}

static double switched(double x) {
  int k = (int)floor(x);
  double r = x;
  switch (k) {
  case 0:
    r *= x;
    break;
  case 1:
    r = exp(r);
    /* fall through */
  case 2:
    r += x * 2;
    break;
  default:
    r = -r;
  }
  return x > 2.9 ? r * x : r;
}

int main(void) {
  double xs[] = {-1.7, -0.3, 0.25, 1.1, 1.9, 2.4, 5.0};
  for (unsigned i = 0; i < sizeof xs / sizeof *xs; ++i) {
    double x = xs[i];
    double t = __enzyme_fwddiff((void *)piecewise, x, 1.0);
    check_grad_at("piecewise", x, t, dpiecewise(x), fd_diff1(piecewise, x));
    double s = __enzyme_fwddiff((void *)switched, x, 1.0);
    check_fd("switched", s, fd_diff1(switched, x));
    check_close("switched (vs reverse)", s, __enzyme_autodiff((void *)switched, x), 1e-12,
                1e-14);
  }
  return check_done();
}
