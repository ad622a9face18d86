// RAII on the normal path: objects with destructors live across calls that
// may throw, so at -O0 every such call is an invoke whose landing pad runs
// the destructors (a cleanup). The derivative follows the normal path and
// the destructors run once per call, in reverse and forward mode.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"
#include <stdexcept>

extern "C" {
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

static int live;

// A scratch buffer owned by its scope.
struct Scratch {
  double *p;
  explicit Scratch(int n) : p(new double[n]) { ++live; }
  ~Scratch() {
    delete[] p;
    --live;
  }
};

__attribute__((noinline)) double step(double x) {
  if (x != x)
    throw std::domain_error("nan");
  return x * x + 1;
}

// x^2 + 1, then squared through a buffer that two guards own.
double f(double x) {
  Scratch a(2);
  a.p[0] = step(x);
  Scratch b(1);
  b.p[0] = step(a.p[0]) * x;
  return b.p[0];
}

int main() {
  const double xs[] = {0.6, -1.1};
  for (double x : xs) {
    // f = ((x^2 + 1)^2 + 1) x
    double u = x * x + 1;
    double expect = (u * u + 1) + 4 * u * x * x;
    double fd = fd_diff1(f, x);
    check_grad_at("reverse", x, __enzyme_autodiff((void *)f, x), expect, fd);
    check_grad_at("forward", x, __enzyme_fwddiff((void *)f, x, 1.0), expect,
                  fd);
  }
  check_close("every guard destroyed", live, 0, 0, 0);
  return check_done();
}
