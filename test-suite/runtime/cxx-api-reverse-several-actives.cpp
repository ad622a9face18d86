// <enzyme/enzyme>, reverse mode with several Active arguments: their
// gradients come back in order as the tuple in element 0, also of float
// and long double parameters (each in its own type), read with
// enzyme::get or structured bindings; sixteen actives (the most one call
// takes) come back through memory.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"
#include <enzyme/enzyme>

#include <type_traits>

double two(double x, double y) { return x * y * y + exp(x); }
double mixed(double a, float b, int n, long double c, double *p) {
  return a * b * n + (double)(c * c) * p[0] + a / p[0];
}
double sixteen(double a0, double a1, double a2, double a3, double a4, double a5,
               double a6, double a7, double a8, double a9, double a10,
               double a11, double a12, double a13, double a14, double a15) {
  double v[16] = {a0, a1, a2,  a3,  a4,  a5,  a6,  a7,
                  a8, a9, a10, a11, a12, a13, a14, a15};
  double s = 0;
  for (int i = 0; i < 16; ++i)
    s += (i + 1) * v[i] * v[i];
  return s;
}

static double mixed_v(const double *v, void *ctx) {
  double p[1] = {v[3]};
  return mixed(v[0], (float)v[1], *(int *)ctx, (long double)v[2], p);
}

int main() {
  double x = 0.3, y = -1.1;
  auto r = enzyme::autodiff<enzyme::Reverse>(two, enzyme::Active{x},
                                             enzyme::Active{y});
  check_grad("d/dx", enzyme::get<0>(enzyme::get<0>(r)), y * y + exp(x),
             fd_diff2(two, x, y, 0));
  check_grad("d/dy", enzyme::get<1>(enzyme::get<0>(r)), 2 * x * y,
             fd_diff2(two, x, y, 1));

  // Structured bindings on the gradient tuple.
  auto [dx, dy] = enzyme::get<0>(r);
  check_grad("d/dx (binding)", dx, y * y + exp(x), fd_diff2(two, x, y, 0));
  check_grad("d/dy (binding)", dy, 2 * x * y, fd_diff2(two, x, y, 1));

  // Mixed types and activities: the gradients keep their parameter types.
  double a = 0.8, p[1] = {1.7}, dp[1] = {0};
  float b = 1.25f;
  long double c = 0.6L;
  int n = 3;
  auto m = enzyme::autodiff<enzyme::Reverse>(
      mixed, enzyme::Active{a}, enzyme::Active{b}, enzyme::Const{n},
      enzyme::Active{c}, enzyme::Duplicated<double *>{p, dp});
  auto [da, db, dc] = enzyme::get<0>(m);
  static_assert(std::is_same_v<decltype(da), double> &&
                    std::is_same_v<decltype(db), float> &&
                    std::is_same_v<decltype(dc), long double>,
                "gradients have the parameters' types");
  double v[4] = {a, b, (double)c, p[0]};
  check_grad("d/da", da, b * n + 1 / p[0], fd_partial(mixed_v, v, 4, 0, &n));
  // (A finite difference cannot step a float by 1e-6: analytic only.)
  check_close("d/db (float)", db, (float)a * n, 1e-6, 1e-7);
  check_grad("d/dc (long double)", (double)dc, (double)(2 * c) * p[0],
             fd_partial(mixed_v, v, 4, 2, &n));
  check_grad("d/dp", dp[0], (double)(c * c) - a / (p[0] * p[0]),
             fd_partial(mixed_v, v, 4, 3, &n));

  // Sixteen gradients.
  double s[16];
  for (int i = 0; i < 16; ++i)
    s[i] = 0.1 * (i + 1) - 0.75;
  auto big = enzyme::autodiff<enzyme::Reverse>(
      sixteen, enzyme::Active{s[0]}, enzyme::Active{s[1]}, enzyme::Active{s[2]},
      enzyme::Active{s[3]}, enzyme::Active{s[4]}, enzyme::Active{s[5]},
      enzyme::Active{s[6]}, enzyme::Active{s[7]}, enzyme::Active{s[8]},
      enzyme::Active{s[9]}, enzyme::Active{s[10]}, enzyme::Active{s[11]},
      enzyme::Active{s[12]}, enzyme::Active{s[13]}, enzyme::Active{s[14]},
      enzyme::Active{s[15]});
  const auto &gs = enzyme::get<0>(big);
  check_close("d/da0", enzyme::get<0>(gs), 2 * 1 * s[0], RTOL_EXACT,
              ATOL_EXACT);
  check_close("d/da7", enzyme::get<7>(gs), 2 * 8 * s[7], RTOL_EXACT,
              ATOL_EXACT);
  check_close("d/da15", enzyme::get<15>(gs), 2 * 16 * s[15], RTOL_EXACT,
              ATOL_EXACT);
  return check_done();
}
