// <enzyme/enzyme> with function objects: a lambda without captures (passed
// as its function pointer), a lambda with captures and a functor struct
// (through a trampoline that passes the object as a constant argument:
// captured values carry no derivative), a generic lambda (its parameter
// types are those of the wrappers), a function pointer variable, and some
// of them through a helper template that passes them on.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"
#include <enzyme/enzyme>

struct Cubic {
  double operator()(double x) const { return x * x * x - 2 * x; }
};

struct Scaled {
  double a;
  double operator()(double x, double *y) const {
    return a * x * y[0] + sin(y[1]);
  }
};

double plain(double x) { return exp(0.5 * x); }

static double cubic(double x) { return Cubic{}(x); }

// A helper of the user's that passes the function on: at -O0 the engine
// specialises it per function.
template <typename F> __attribute__((noinline)) double derivative(F &&f, double x) {
  return enzyme::get<0>(enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(f, enzyme::Active{x})));
}

int main() {
  double x = 0.6;

  auto sq = [](double v, double w) { return v * w * w; };
  auto r1 = enzyme::autodiff<enzyme::Reverse>(sq, enzyme::Active{x},
                                              enzyme::Active{1.5});
  check_close("lambda d/dv", enzyme::get<0>(enzyme::get<0>(r1)), 2.25,
              RTOL_EXACT, ATOL_EXACT);
  check_close("lambda d/dw", enzyme::get<1>(enzyme::get<0>(r1)), 2 * x * 1.5,
              RTOL_EXACT, ATOL_EXACT);

  auto r2 = enzyme::autodiff<enzyme::Reverse>(Cubic{}, enzyme::Active{x});
  check_grad("functor", enzyme::get<0>(enzyme::get<0>(r2)), 3 * x * x - 2,
             fd_diff1(cubic, x));

  double k = 2.5;
  auto cap = [k](double v) { return k * v * v; };
  auto r3 = enzyme::autodiff<enzyme::Reverse>(cap, enzyme::Active{x});
  check_close("capturing lambda", enzyme::get<0>(enzyme::get<0>(r3)), 2 * k * x,
              RTOL_EXACT, ATOL_EXACT);

  const Scaled s{3.0};
  double y[2] = {0.4, 1.2}, dy[2] = {0, 0};
  auto r4 = enzyme::autodiff<enzyme::Reverse>(
      s, enzyme::Active{x}, enzyme::Duplicated<double *>{y, dy});
  check_close("functor with state d/dx", enzyme::get<0>(enzyme::get<0>(r4)),
              3.0 * y[0], RTOL_EXACT, ATOL_EXACT);
  check_close("functor with state d/dy0", dy[0], 3.0 * x, RTOL_EXACT,
              ATOL_EXACT);
  check_close("functor with state d/dy1", dy[1], cos(y[1]), RTOL_EXACT,
              ATOL_EXACT);

  auto generic = [](auto a, auto b) { return a * a * b; };
  auto r5 = enzyme::autodiff<enzyme::Reverse>(generic, enzyme::Active{x},
                                              enzyme::Active{4.0});
  check_close("generic lambda d/da", enzyme::get<0>(enzyme::get<0>(r5)), 8 * x,
              RTOL_EXACT, ATOL_EXACT);
  check_close("generic lambda d/db", enzyme::get<1>(enzyme::get<0>(r5)), x * x,
              RTOL_EXACT, ATOL_EXACT);

  double (*fp)(double) = plain;
  auto r6 = enzyme::autodiff<enzyme::Reverse>(fp, enzyme::Active{x});
  check_grad("function pointer", enzyme::get<0>(enzyme::get<0>(r6)),
             0.5 * exp(0.5 * x), fd_diff1(plain, x));
  auto r7 = enzyme::autodiff<enzyme::Reverse>(&plain, enzyme::Active{x});
  check_grad("&function", enzyme::get<0>(enzyme::get<0>(r7)),
             0.5 * exp(0.5 * x), fd_diff1(plain, x));

  check_grad("through a helper: function", derivative(plain, x), 0.5 * exp(0.5 * x),
             fd_diff1(plain, x));
  check_grad("through a helper: functor", derivative(Cubic{}, x), 3 * x * x - 2,
             fd_diff1(cubic, x));
  check_close("through a helper: capturing lambda", derivative(cap, x), 2 * k * x, RTOL_EXACT,
              ATOL_EXACT);
  return check_done();
}
