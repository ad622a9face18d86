// <enzyme/enzyme>: the spellings of the wrappers (class template argument
// deduction and explicit types, Duplicated<T&> and Const<const T&> for
// reference parameters, DuplicatedNoNeed), an explicit return activity
// (autodiff<Reverse, Active<double>>), float arguments passed as float, and
// the header next to hand-written declarations of the C ABI.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"
#include <enzyme/enzyme>

// Both declaration styles of the raw ABI may live next to the header.
extern "C" double __enzyme_autodiff(void *, ...);
extern int enzyme_out;

struct Particle {
  double pos[2];
  double mass;
};

// Reference parameters: p by const reference, out by reference.
double kinetic(const Particle &p, const double &scale, double &out) {
  out = 0.5 * p.mass * (p.pos[0] * p.pos[0] + p.pos[1] * p.pos[1]) * scale;
  return out;
}

float fsq(float a, float b) { return a * a * b; }
double square(double v) { return v * v; }

int main() {
  Particle p{{0.5, -1.5}, 2.0}, dp{{0, 0}, 0};
  double out = 0, dout = 0, scale = 0.75;
  auto r = enzyme::autodiff<enzyme::Reverse>(
      kinetic, enzyme::Duplicated<const Particle &>(p, dp),
      enzyme::Const<const double &>(scale),
      enzyme::DuplicatedNoNeed<double &>(out, dout));
  static_assert(
      enzyme::tuple_size_v<enzyme::tuple_element_t<0, decltype(r)>> == 0, "");
  check_close("d/dpos0", dp.pos[0], p.mass * p.pos[0] * scale, RTOL_EXACT,
              ATOL_EXACT);
  check_close("d/dpos1", dp.pos[1], p.mass * p.pos[1] * scale, RTOL_EXACT,
              ATOL_EXACT);
  check_close("d/dmass", dp.mass, 0.5 * (0.25 + 2.25) * scale, RTOL_EXACT,
              ATOL_EXACT);

  // Explicit types and an explicit return activity give the same result as
  // deduction.
  double x = 1.75;
  auto a = enzyme::autodiff<enzyme::Reverse, enzyme::Active<double>>(
      square, enzyme::Active<double>(x));
  auto b = enzyme::autodiff<enzyme::Reverse>(square, enzyme::Active{x});
  check_grad("explicit", enzyme::get<0>(enzyme::get<0>(a)), 2 * x,
             fd_diff1(square, x));
  check_grad("deduced", enzyme::get<0>(enzyme::get<0>(b)), 2 * x,
             fd_diff1(square, x));

  // Float arguments and gradients stay float.
  auto f = enzyme::autodiff<enzyme::Reverse>(fsq, enzyme::Active{1.5f},
                                             enzyme::Active{-2.0f});
  check_close("float d/da", enzyme::get<0>(enzyme::get<0>(f)), 2 * 1.5f * -2.0f,
              1e-6, 0);
  check_close("float d/db", enzyme::get<1>(enzyme::get<0>(f)), 1.5f * 1.5f,
              1e-6, 0);

  // A double argument for a float parameter converts to the parameter's type.
  auto c = enzyme::autodiff<enzyme::Reverse>(fsq, enzyme::Active{1.5},
                                             enzyme::Const{-2.0});
  check_close("converted d/da", enzyme::get<0>(enzyme::get<0>(c)),
              2 * 1.5 * -2.0, 1e-6, 0);

  // The raw ABI in the same file.
  check_grad("raw ABI", __enzyme_autodiff((void *)square, enzyme_out, x), 2 * x,
             fd_diff1(square, x));
  return check_done();
}
