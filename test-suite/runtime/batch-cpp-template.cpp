// __enzyme_batch declared as Enzyme's users do in C++, a variadic template
// whose first argument is the result type: arguments keep their types (a
// float stays a float), and the result may be any aggregate with one scalar
// per lane (std::array, a struct). Function templates and a function taking
// a reference (a pointer per lane) are batched too.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"

#include <array>

extern int enzyme_width, enzyme_vector, enzyme_scalar;
template <typename R, typename... Args> R __enzyme_batch(Args...);

template <typename T> T cube_scaled(T x, T s) { return x * x * x * s; }

struct Pair {
  float first, second;
};

double norm2(const std::array<double, 2> &v) { return v[0] * v[0] + v[1] * v[1]; }

int main() {
  auto r = __enzyme_batch<std::array<double, 4>>(
      (void *)cube_scaled<double>, enzyme_width, 4, enzyme_vector, 1.0, 2.0,
      -3.0, 0.5, enzyme_scalar, 0.25);
  const double xs[4] = {1.0, 2.0, -3.0, 0.5};
  for (int k = 0; k < 4; ++k)
    check_close("cube_scaled<double>", r[k], cube_scaled(xs[k], 0.25), 1e-15,
                0.0);

  Pair p = __enzyme_batch<Pair>((void *)cube_scaled<float>, enzyme_width, 2,
                                enzyme_scalar, 1.5f, enzyme_vector, 2.0f, -1.0f);
  check_close("cube_scaled<float> 0", p.first, cube_scaled(1.5f, 2.0f), 0.0, 0.0);
  check_close("cube_scaled<float> 1", p.second, cube_scaled(1.5f, -1.0f), 0.0, 0.0);

  std::array<double, 2> a{3.0, 4.0}, b{-1.0, 0.5}, c{0.0, 2.0};
  auto n = __enzyme_batch<std::array<double, 3>>((void *)norm2, enzyme_width,
                                                 3, &a, &b, &c);
  check_close("norm2 a", n[0], 25.0, 0.0, 0.0);
  check_close("norm2 b", n[1], 1.25, 0.0, 0.0);
  check_close("norm2 c", n[2], 4.0, 0.0, 0.0);
  return check_done();
}
