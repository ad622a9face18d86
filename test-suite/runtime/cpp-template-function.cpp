// Differentiating function templates: instantiations passed directly, a
// recursive template, and a template calling another.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"

template <typename R, typename... Args> R __enzyme_autodiff(Args...);

template <typename T> T cubic(T x) { return x * x * x + T(2) * x; }

template <int N> double power(double x) { return x * power<N - 1>(x); }
template <> double power<0>(double) { return 1.0; }

template <typename T> T composed(T x) { return cubic(x) * power<4>(x); }

int main() {
  double x = 0.85;
  check_grad("d/dx cubic<double>", __enzyme_autodiff<double>(cubic<double>, x),
             3 * x * x + 2, fd_diff1(cubic<double>, x));
  check_grad("d/dx power<7>", __enzyme_autodiff<double>(power<7>, x), 7 * pow(x, 6),
             fd_diff1(power<7>, x));
  double c = x * x * x + 2 * x, dc = 3 * x * x + 2;
  check_grad("d/dx composed<double>", __enzyme_autodiff<double>(composed<double>, x),
             dc * pow(x, 4) + c * 4 * pow(x, 3), fd_diff1(composed<double>, x));
  return check_done();
}
