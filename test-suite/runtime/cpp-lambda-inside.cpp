// Lambdas inside the differentiated function, capturing the active argument
// by value and an active accumulator by reference.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"

template <typename R, typename... Args> R __enzyme_autodiff(Args...);

/* s = sum_{i<5} i x + x^2 sin(x) */
double f(double x) {
  auto scaled = [x](double t) { return t * x; };
  double acc = 0;
  auto add = [&acc](double v) { acc += v; };
  for (int i = 0; i < 5; i++)
    add(scaled(i));
  add(x * x * sin(x));
  return acc;
}

int main() {
  double x = 1.3;
  double d = 0 + 1 + 2 + 3 + 4 + 2 * x * sin(x) + x * x * cos(x);
  check_grad("d/dx", __enzyme_autodiff<double>(f, x), d, fd_diff1(f, x));
  return check_done();
}
