// <enzyme/enzyme>, forward mode: Duplicated{x, dx} passes a value and its
// tangent; the result is tuple{tangent} (the default for a floating-point
// result, DuplicatedNoNeed<T>), tuple{result, tangent} with Duplicated<T>
// as the result's activity, tuple{result} with Const<T>, and tuple{} for a
// void function, whose tangents come back through the shadows.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"
#include <enzyme/enzyme>

double g(double x, double y) { return x * x * y + sin(y); }

void scale(const double *x, double *y, int n, double a) {
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] * x[i];
}

int doubled(double *x) {
  x[0] = 2 * x[0] * x[0];
  return 7;
}

float gf(float x) { return x * x * x; }

static double g_y = 0.5;
static double g_x(double x) { return g(x, g_y); }

int main() {
  double x = 1.5, y = g_y;

  auto t = enzyme::autodiff<enzyme::Forward>(g, enzyme::Duplicated{x, 1.0},
                                             enzyme::Const{y});
  static_assert(enzyme::tuple_size_v<decltype(t)> == 1, "Forward: {tangent}");
  check_grad("d/dx", enzyme::get<0>(t), 2 * x * y, fd_diff1(g_x, x));

  // Along a direction (2, -1), with the result too.
  auto v = enzyme::autodiff<enzyme::Forward, enzyme::Duplicated<double>>(
      g, enzyme::Duplicated{x, 2.0}, enzyme::Duplicated{y, -1.0});
  check_close("primal", enzyme::get<0>(v), g(x, y), RTOL_EXACT, ATOL_EXACT);
  check_grad("directional", enzyme::get<1>(v),
             2 * (2 * x * y) - (x * x + cos(y)),
             2 * fd_diff2(g, x, y, 0) - fd_diff2(g, x, y, 1));

  // An explicit DuplicatedNoNeed<double> is the default; Const<double> gives
  // the result only.
  auto n = enzyme::autodiff<enzyme::Forward, enzyme::DuplicatedNoNeed<double>>(
      g, enzyme::Const{x}, enzyme::Duplicated{y, 1.0});
  check_grad("d/dy", enzyme::get<0>(n), x * x + cos(y), fd_diff2(g, x, y, 1));
  auto c = enzyme::autodiff<enzyme::Forward, enzyme::Const<double>>(
      g, enzyme::Duplicated{x, 1.0}, enzyme::Const{y});
  check_close("Const result", enzyme::get<0>(c), g(x, y), RTOL_EXACT,
              ATOL_EXACT);

  // Pointers: tangents of the inputs in, tangents of the outputs out
  // (overwritten, not added).
  double in[3] = {1, 2, 3}, din[3] = {1, 0, -2};
  double out[3] = {0, 0, 0}, dout[3] = {9, 9, 9};
  auto w = enzyme::autodiff<enzyme::Forward>(
      scale, enzyme::Duplicated<const double *>{in, din},
      enzyme::Duplicated<double *>{out, dout}, enzyme::Const{3},
      enzyme::Const{0.5});
  static_assert(enzyme::tuple_size_v<decltype(w)> == 0, "void: {}");
  for (int i = 0; i < 3; ++i) {
    check_close("out", out[i], 0.5 * in[i] * in[i], RTOL_EXACT, ATOL_EXACT);
    check_close("dout", dout[i], in[i] * din[i], RTOL_EXACT, ATOL_EXACT);
  }

  // An integer result has no tangent: the result itself.
  double p[1] = {1.5}, dp[1] = {1};
  auto i = enzyme::autodiff<enzyme::Forward>(
      doubled, enzyme::Duplicated<double *>{p, dp});
  check_close("int result", enzyme::get<0>(i), 7, 0, 0);
  check_close("int: x", p[0], 4.5, RTOL_EXACT, ATOL_EXACT);
  check_close("int: dx", dp[0], 4 * 1.5, RTOL_EXACT, ATOL_EXACT);

  // float stays float; structured bindings.
  auto [fv, ft] = enzyme::autodiff<enzyme::Forward, enzyme::Duplicated<float>>(
      gf, enzyme::Duplicated{1.5f, 1.0f});
  check_close("float primal", fv, 3.375f, 1e-6, 0);
  check_close("float tangent", ft, 6.75f, 1e-6, 0);
  return check_done();
}
