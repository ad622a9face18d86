// std::vector<double>& with a shadow vector of the same size: the gradient
// lands in the shadow's elements.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"
#include <vector>

template <typename R, typename... Args> R __enzyme_autodiff(Args...);
extern int enzyme_dup;

double sum_cubes(std::vector<double> &v) {
  double s = 0;
  for (double e : v)
    s += e * e * e;
  for (size_t i = 1; i < v.size(); i++)
    s += v[i] * v[i - 1];
  return s;
}

static double sum_cubes_v(const double *x, void *ctx) {
  std::vector<double> v(x, x + *static_cast<int *>(ctx));
  return sum_cubes(v);
}

int main() {
  std::vector<double> v = {0.5, -1.0, 1.5, 2.0, -0.25};
  std::vector<double> dv(v.size(), 0.0);
  __enzyme_autodiff<void>(sum_cubes, enzyme_dup, &v, &dv);
  for (size_t i = 0; i < v.size(); i++) {
    double e = 3 * v[i] * v[i];
    if (i > 0)
      e += v[i - 1];
    if (i + 1 < v.size())
      e += v[i + 1];
    int n = (int)v.size();
    check_grad("d/dv_i", dv[i], e, fd_partial(sum_cubes_v, v.data(), n, (int)i, &n));
  }
  return check_done();
}
