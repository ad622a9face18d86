// <enzyme/enzyme>, reverse mode: Active, Duplicated<T*> and Const mixed in
// one call; the gradient of the Active argument comes back as element 0 of
// the tuple in element 0 of the result, the pointer's derivatives are added
// to its shadow, and the Const argument carries none.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O3 %s -o %t && %t
#include "Inputs/check.h"
#include <enzyme/enzyme>

// f(x, p, c) = x^2 p0 + sin(x) p1 + c p0 p1
double f(double x, double *p, double c) {
  return x * x * p[0] + sin(x) * p[1] + c * p[0] * p[1];
}

static double g_p[2] = {1.3, -0.4};
static double g_c = 2.5;
static double g_x = 0.7;
static double f_x(double x) { return f(x, g_p, g_c); }
static double f_c(double c) { return f(g_x, g_p, c); }
static double f_v(const double *v, void *ctx) {
  double p[2] = {v[1], v[2]};
  return f(v[0], p, *(double *)ctx);
}

int main() {
  double x = g_x, c = g_c;
  double p[2] = {g_p[0], g_p[1]}, dp[2] = {0, 0};
  auto r = enzyme::autodiff<enzyme::Reverse>(
      f, enzyme::Active{x}, enzyme::Duplicated<double *>{p, dp},
      enzyme::Const{c});
  static_assert(enzyme::tuple_size_v<decltype(r)> == 1, "Reverse: one element");
  static_assert(enzyme::tuple_size_v<enzyme::tuple_element_t<0, decltype(r)>> ==
                    1,
                "one Active argument: one gradient");
  double dx = enzyme::get<0>(enzyme::get<0>(r));
  double v[3] = {x, p[0], p[1]};
  check_grad("d/dx", dx, 2 * x * p[0] + cos(x) * p[1], fd_diff1(f_x, x));
  check_grad("d/dp0", dp[0], x * x + c * p[1], fd_partial(f_v, v, 3, 1, &c));
  check_grad("d/dp1", dp[1], sin(x) + c * p[0], fd_partial(f_v, v, 3, 2, &c));

  // Shadows accumulate: a second call adds the same derivatives again.
  enzyme::autodiff<enzyme::Reverse>(f, enzyme::Active{x},
                                    enzyme::Duplicated<double *>{p, dp},
                                    enzyme::Const{c});
  check_grad("d/dp0 twice", dp[0], 2 * (x * x + c * p[1]),
             2 * fd_partial(f_v, v, 3, 1, &c));

  // The same call with every argument's activity changed: only pointers.
  double dp2[2] = {0, 0};
  auto r2 = enzyme::autodiff<enzyme::Reverse>(
      f, enzyme::Const{x}, enzyme::Duplicated<double *>{p, dp2},
      enzyme::Active{c});
  check_grad("d/dc", enzyme::get<0>(enzyme::get<0>(r2)), p[0] * p[1],
             fd_diff1(f_c, c));
  check_grad("d/dp1 (x const)", dp2[1], sin(x) + c * p[0],
             fd_partial(f_v, v, 3, 2, &c));

  // Only a shadow: the result is a tuple holding an empty tuple.
  double dp3[2] = {0, 0};
  auto r3 = enzyme::autodiff<enzyme::Reverse>(
      f, enzyme::Const{x}, enzyme::Duplicated<double *>{p, dp3},
      enzyme::Const{c});
  static_assert(
      enzyme::tuple_size_v<enzyme::tuple_element_t<0, decltype(r3)>> == 0,
      "no Active argument: no gradient");
  check_grad("d/dp0 (only shadows)", dp3[0], x * x + c * p[1],
             fd_partial(f_v, v, 3, 1, &c));
  return check_done();
}
