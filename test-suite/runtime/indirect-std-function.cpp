// std::function calls its target through a function pointer (the invoker
// it stores); a lambda with captured active state and a plain function
// both carry derivatives through it.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"
#include <functional>

template <typename R, typename... Args> R __enzyme_autodiff(Args...);

static double cube(double y) { return y * y * y; }

__attribute__((noinline)) double apply_twice(const std::function<double(double)> &f,
                                             double x) {
  return f(f(x));
}

double via_lambda(double x) {
  double k = 0.5 * x; // captured: the lambda's derivative reaches x through it
  std::function<double(double)> f = [k](double y) { return sin(y) * k; };
  return apply_twice(f, x);
}

double via_function(double x) {
  std::function<double(double)> f = cube;
  return apply_twice(f, x);
}

int main() {
  double x = 0.8;
  // sin(sin(x) k) k with k = x/2.
  double k = 0.5 * x, inner = sin(x) * k;
  double d_inner = cos(x) * k + sin(x) * 0.5;
  double want = cos(inner) * d_inner * k + sin(inner) * 0.5;
  check_grad("lambda", __enzyme_autodiff<double>((void *)via_lambda, x), want,
             fd_diff1(via_lambda, x));
  // (x^3)^3 = x^9.
  check_grad("function pointer", __enzyme_autodiff<double>((void *)via_function, x),
             9 * pow(x, 8), fd_diff1(via_function, x));
  return check_done();
}
