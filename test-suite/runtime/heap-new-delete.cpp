// C++ new[]/delete[] and new/delete of active storage inside the function.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"

template <typename R, typename... Args> R __enzyme_autodiff(Args...);

struct accumulator {
  double total;
  explicit accumulator(double t) : total(t) {}
  void add(double v) { total += v; }
};

/* s = x + sum_{i<n} (x + i)^2 */
double f(double x, int n) {
  double *a = new double[n];
  for (int i = 0; i < n; i++)
    a[i] = x + i;
  accumulator *acc = new accumulator(x);
  for (int i = 0; i < n; i++)
    acc->add(a[i] * a[i]);
  double s = acc->total;
  delete acc;
  delete[] a;
  return s;
}

static double f5(double x) { return f(x, 5); }

int main() {
  double x = 0.35, d = 1;
  for (int i = 0; i < 5; i++)
    d += 2 * (x + i);
  check_grad("d/dx", __enzyme_autodiff<double>(f, x, 5), d, fd_diff1(f5, x));
  return check_done();
}
