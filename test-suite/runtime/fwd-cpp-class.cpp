// Forward mode of C++ code: a class with member functions (called through
// this, which is a duplicated pointer: the shadow object holds the
// tangents of the members), a constructor and a template, new/delete inside
// the function.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"

extern "C" {
extern int enzyme_dup, enzyme_const;
double __enzyme_fwddiff(void *, ...);
}

class Spring {
public:
  Spring(double k, double rest) : K(k), Rest(rest) {}
  __attribute__((noinline)) double energy(double x) const {
    double d = stretch(x);
    return 0.5 * K * d * d;
  }
  void stiffen(double f) { K *= f; }

private:
  double stretch(double x) const { return x - Rest; }
  double K, Rest;
};

template <typename T> static T cube(T v) { return v * v * v; }

static double simulate(Spring *s, double x) {
  Spring *copy = new Spring(*s);
  copy->stiffen(1.0 + x * x);
  double e = copy->energy(x) + cube(x);
  delete copy;
  return e + s->energy(2 * x);
}

int main() {
  double k = 3.0, rest = 0.5, x = 1.25;
  Spring s(k, rest), ds(0.0, 0.0);
  double t = __enzyme_fwddiff((void *)simulate, enzyme_dup, &s, &ds, x, 1.0);
  // e(x) = 0.5 k (1 + x^2) (x - r)^2 + x^3 + 0.5 k (2x - r)^2
  double expect = 0.5 * k * (2 * x) * (x - rest) * (x - rest) +
                  k * (1 + x * x) * (x - rest) + 3 * x * x + 2 * k * (2 * x - rest);
  check_close("d/dx", t, expect, 1e-12, 1e-13);

  // The tangent along the spring constant: a shadow object with dK = 1.
  Spring dk(1.0, 0.0);
  double tk = __enzyme_fwddiff((void *)simulate, enzyme_dup, &s, &dk, enzyme_const, x);
  double expect_k = 0.5 * (1 + x * x) * (x - rest) * (x - rest) + 0.5 * (2 * x - rest) * (2 * x - rest);
  check_close("d/dk", tk, expect_k, 1e-12, 1e-13);
  return check_done();
}
