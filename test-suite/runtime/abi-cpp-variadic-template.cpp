// C++ users declare __enzyme_autodiff as a variadic template; the call then
// has a mangled name and the function is passed uncast.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"

template <typename R, typename... Args> R __enzyme_autodiff(Args...);
extern int enzyme_dup, enzyme_out;

double f(double x) { return x * x * x - 2 * x; }
void g(double *x, double *y) { *y = sin(x[0]) * x[1]; }

int main() {
  double x = 1.3;
  check_grad("d/dx f", __enzyme_autodiff<double>(f, x), 3 * x * x - 2, fd_diff1(f, x));

  double xs[2] = {0.4, 2.0}, dxs[2] = {0, 0}, y = 0, dy = 1.0;
  __enzyme_autodiff<void>(g, enzyme_dup, xs, dxs, enzyme_dup, &y, &dy);
  check_close("d/dx0 g", dxs[0], cos(xs[0]) * xs[1], RTOL_EXACT, ATOL_EXACT);
  check_close("d/dx1 g", dxs[1], sin(xs[0]), RTOL_EXACT, ATOL_EXACT);
  check_close("dy consumed", dy, 0.0, 0.0, 0.0);
  return check_done();
}
