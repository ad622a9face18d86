// Vector reverse mode from C++ (the ABI declared as a variadic template):
// virtual methods called through the vtable of an object passed with
// enzyme_dup, a std::function, and a member array, with two seeds in one
// sweep. Direction 0 seeds out[0], direction 1 seeds out[1]; member data
// gets its two adjoints in the two shadow objects.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"
#include <functional>

template <typename R, typename... Args> R __enzyme_autodiff(Args...);
extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_width;

struct Law {
  double k[2] = {1.5, -0.5};
  virtual double stress(double e) const = 0;
  virtual ~Law() {}
};
struct Linear : Law {
  double stress(double e) const override { return k[0] * e + k[1]; }
};
struct Cubic : Law {
  double stress(double e) const override { return k[0] * e * e * e + k[1] * e; }
};

__attribute__((noinline)) void respond(const Law *law,
                                       const std::function<double(double)> &f,
                                       double e, double *out) {
  out[0] = law->stress(e) * f(e);
  out[1] = law->stress(2 * e) + f(e) * e;
}

struct grads {
  double de[2];
};

int main() {
  const double e = 0.7;
  std::function<double(double)> f = [](double x) { return std::sin(x) + x; };
  auto df = [](double x) { return std::cos(x) + 1; };
  Cubic cubic;
  Linear linear;
  const Law *laws[2] = {&linear, &cubic};
  for (const Law *law : laws) {
    bool isCubic = law == &cubic;
    auto s = [&](double x) { return law->stress(x); };
    auto ds = [&](double x) {
      return isCubic ? 3 * law->k[0] * x * x + law->k[1] : law->k[0];
    };
    // d stress / d k0, d k1 at x.
    auto dk0 = [&](double x) { return isCubic ? x * x * x : x; };
    auto dk1 = [&](double x) { return isCubic ? x : 1.0; };

    Cubic shadowCubic[2];
    Linear shadowLinear[2];
    Law *shadow0 = isCubic ? (Law *)&shadowCubic[0] : (Law *)&shadowLinear[0];
    Law *shadow1 = isCubic ? (Law *)&shadowCubic[1] : (Law *)&shadowLinear[1];
    for (Law *sh : {shadow0, shadow1})
      sh->k[0] = sh->k[1] = 0;
    double out[2], seed0[2] = {1, 0}, seed1[2] = {0, 1};
    grads g = __enzyme_autodiff<grads>(
        (void *)respond, enzyme_width, 2, enzyme_dup, law, shadow0, shadow1,
        enzyme_const, &f, e, enzyme_dupnoneed, out, seed0, seed1);
    check_close("d out0 / de", g.de[0], ds(e) * f(e) + s(e) * df(e), RTOL_EXACT,
                ATOL_EXACT);
    check_close("d out1 / de", g.de[1], 2 * ds(2 * e) + df(e) * e + f(e),
                RTOL_EXACT, ATOL_EXACT);
    check_close("d out0 / dk0", shadow0->k[0], dk0(e) * f(e), RTOL_EXACT,
                ATOL_EXACT);
    check_close("d out0 / dk1", shadow0->k[1], dk1(e) * f(e), RTOL_EXACT,
                ATOL_EXACT);
    check_close("d out1 / dk0", shadow1->k[0], dk0(2 * e), RTOL_EXACT,
                ATOL_EXACT);
    check_close("d out1 / dk1", shadow1->k[1], dk1(2 * e), RTOL_EXACT,
                ATOL_EXACT);
  }
  return check_done();
}
