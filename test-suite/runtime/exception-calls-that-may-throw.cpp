// Calls that may throw and do not: std::vector::at (bounds-checked), a
// throwing operator new, a constructor that validates its argument and a
// function declared noexcept(false) in another (non-inlined) function. None
// of them throws here, so the derivative is that of the normal path, in
// reverse and forward mode, with the calls as invokes at -O0.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"
#include <stdexcept>
#include <vector>

extern "C" {
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

// Declared to throw, defined out of line below and never inlined.
double scaled(double x, double s) noexcept(false);

struct Positive {
  double v;
  explicit Positive(double x) : v(x) {
    if (!(x > 0))
      throw std::invalid_argument("not positive");
  }
};

// v = {x, x^2, x^3} built on the heap; sum of v.at(i) * (i + 1), through a
// Positive made with new, times a checked scale.
double f(double x) {
  std::vector<double> v;
  v.push_back(x);
  v.push_back(x * x);
  v.push_back(x * x * x);
  double s = 0;
  for (size_t i = 0; i < 3; ++i)
    s += v.at(i) * (double)(i + 1);
  Positive *p = new Positive(x);
  double r = scaled(s, p->v);
  delete p;
  return r;
}

__attribute__((noinline)) double scaled(double x, double s) noexcept(false) {
  if (s > 1e300)
    throw std::overflow_error("scale too large");
  return x * s;
}

int main() {
  const double xs[] = {0.4, 1.3};
  for (double x : xs) {
    // f = (x + 2x^2 + 3x^3) x
    double expect = 2 * x + 6 * x * x + 12 * x * x * x;
    double fd = fd_diff1(f, x);
    check_grad_at("reverse", x, __enzyme_autodiff((void *)f, x), expect, fd);
    check_grad_at("forward", x, __enzyme_fwddiff((void *)f, x, 1.0), expect,
                  fd);
  }
  return check_done();
}
