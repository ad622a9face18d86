// A 2x2 matrix filled with the comma initializer from a constant and
// active values, then `cwiseAbs().maxCoeff()` and `cwiseAbs().sum()` (from
// the C++ fuzzer, seed 1884). At -O2 the optimiser builds the packet that
// Eigen's SSE pabs masks from the constant's bits and a double moved as an
// i64 (`insertelement <2 x i64>`), which the engine refused ("floats whose
// bits carry a derivative but are moved as integers"). Reverse mode
// against analytic values and central differences, forward against
// reverse.
// RUN: %clangxx_enzyme -fenzyme -O0 -I/usr/include/eigen3 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 -I/usr/include/eigen3 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O3 -march=x86-64-v3 -I/usr/include/eigen3 %s -o %t && %t
#include "Inputs/check.h"
#include <Eigen/Dense>
#include <cmath>

extern int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

static double f(const double *x, double a) {
  Eigen::Matrix2d m;
  m << std::sqrt(1.0 + 0.232 * 0.232), a + x[1], x[1], x[0] / (2.0 + std::sin(a));
  return m.cwiseAbs().maxCoeff() + 0.5 * m.cwiseAbs().sum();
}

static double f_of(const double *x, void *ctx) { return f(x, *(double *)ctx); }

int main() {
  double a = -2.5;
  double x[2] = {-3.0, 0.75}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, a);
  // The entries, their derivatives along x0 and x1, and the largest.
  double d = 2.0 + std::sin(a);
  double e[4] = {std::sqrt(1.0 + 0.232 * 0.232), a + x[1], x[1], x[0] / d};
  double de[4][2] = {{0, 0}, {0, 1}, {0, 1}, {1 / d, 0}};
  int k = 0;
  for (int j = 1; j < 4; ++j)
    if (std::fabs(e[j]) > std::fabs(e[k]))
      k = j;
  double analytic[2] = {0, 0};
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j)
      analytic[i] += ((j == k) + 0.5) * std::copysign(1.0, e[j]) * de[j][i];
  for (int i = 0; i < 2; ++i) {
    check_grad("reverse d/dx", dx[i], analytic[i],
               fd_partial(f_of, x, 2, i, &a));
    double t[2] = {0, 0};
    t[i] = 1;
    check_close("forward d/dx",
                __enzyme_fwddiff((void *)f, enzyme_dup, x, t, enzyme_const, a),
                dx[i], RTOL_EXACT, ATOL_EXACT);
  }
  return check_done();
}
