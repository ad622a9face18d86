// Forward mode of a scalar function: __enzyme_fwddiff returns the tangent of
// the result, the directional derivative along the tangents of the inputs
// (unmarked doubles are duplicated: value, then tangent). Checked against
// the analytic derivative, central finite differences, and reverse mode of
// the same function (<w, J v> = <J^T w, v> with w = 1).
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_out;
double __enzyme_fwddiff(void *, ...);
typedef struct { double dx, dy; } grad2;
grad2 __enzyme_autodiff(void *, ...);

static double f(double x, double y) {
  return x * x * y - y / x + 3.0 * x - (y - 1.5) * (x + 2.0);
}

static double dfdx(double x, double y) { return 2 * x * y + y / (x * x) + 3.0 - (y - 1.5); }
static double dfdy(double x, double y) { return x * x - 1.0 / x - (x + 2.0); }

static double square(double x) { return x * x; }

int main(void) {
  double x = 1.3, y = -0.7;
  // The documented one-liner: d/dx x^2 at x with tangent 1.
  check_close("square", __enzyme_fwddiff((void *)square, x, 1.0), 2 * x, RTOL_EXACT,
              ATOL_EXACT);

  double dx1 = __enzyme_fwddiff((void *)f, x, 1.0, y, 0.0);
  double dy1 = __enzyme_fwddiff((void *)f, enzyme_dup, x, 0.0, enzyme_dup, y, 1.0);
  check_grad("df/dx", dx1, dfdx(x, y), fd_diff2(f, x, y, 0));
  check_grad("df/dy", dy1, dfdy(x, y), fd_diff2(f, x, y, 1));

  // Any direction: linear in the tangents.
  double vx = 0.25, vy = -2.0;
  double dv = __enzyme_fwddiff((void *)f, x, vx, y, vy);
  check_close("direction", dv, vx * dfdx(x, y) + vy * dfdy(x, y), 1e-12, 1e-13);

  // Against reverse mode: <1, J v> = <J^T 1, v>.
  grad2 g = __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_out, y);
  check_close("reverse", dv, g.dx * vx + g.dy * vy, 1e-12, 1e-13);
  return check_done();
}
