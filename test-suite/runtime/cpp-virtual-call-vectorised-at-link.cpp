// A function that makes a virtual call (so its request is completed at the
// -fenzyme link, docs/reverse-mode.md "Calls through pointers") and computes
// two fabs side by side, at -O2. Found by the C++ fuzzer (scripts/fuzz --kind
// cpp: seeds 29, 46, 118, 122, 238, 240, 268 at -O2, every one a program with
// virtual methods), reduced by hand.
//
// A request whose function has an indirect call waits for the link, and
// the bitcode that -ffat-lto-objects embeds has been through the
// compile-time pipeline's SLP and loop vectorisers, so the engine sees SIMD
// IR there ('llvm.fabs.v2f64', 'shufflevector' splats,
// 'llvm.fmuladd.v2f64'): this failed to link ("no derivative rule for the
// intrinsic 'llvm.fabs.v2f64'") until vector instructions and intrinsics
// became differentiable (issue 13, "SIMD code"). Deferred requests still see
// their functions after vectorisation, unlike DESIGN.md section 3's order.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 -DNO_VIRTUAL %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"
#include <cmath>

extern int enzyme_dup;
extern "C" void __enzyme_autodiff(void *, ...);

struct Shape {
  virtual ~Shape() = default;
  virtual double eval(double u) const = 0;
};
struct Wave : Shape {
  double a;
  explicit Wave(double a_) : a(a_) {}
  double eval(double u) const override { return std::sin(a * u); }
};
__attribute__((noinline)) double use_shape(const Shape &s, double u) { return s.eval(u); }

static double g(double u) { return 0.5 * std::fabs(u) + 0.25 * u * u; }

// x[2] = g(x[0]) + g(x[1]) + sin((g(x[0]) + g(x[1])) * x[0]) (without the
// virtual call: x[2] = g(x[0]) + g(x[1])).
static void f(double *x) {
  double t = g(x[0]) + g(x[1]);
#ifndef NO_VIRTUAL
  Wave w(t);
  t += use_shape(w, x[0]);
#endif
  x[2] = t;
}

static double f_of(const double *x, void *) {
  double y[3] = {x[0], x[1], 0};
  f(y);
  return y[2];
}

int main() {
  double x[3] = {0.5, -1.25, 0}, dx[3] = {0, 0, 1};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  double x0[3] = {0.5, -1.25, 0};
  double gp0 = 0.5 + 0.5 * x0[0], gp1 = -0.5 + 0.5 * x0[1], t = 0.5 * 0.5 + 0.25 * 0.25 + 0.5 * 1.25 + 0.25 * 1.5625;
#ifdef NO_VIRTUAL
  double e0 = gp0, e1 = gp1;
#else
  double c = std::cos(t * x0[0]);
  double e0 = gp0 + c * (gp0 * x0[0] + t), e1 = gp1 + c * gp1 * x0[0];
#endif
  check_grad("d/dx0", dx[0], e0, fd_partial(f_of, x0, 3, 0, nullptr));
  check_grad("d/dx1", dx[1], e1, fd_partial(f_of, x0, 3, 1, nullptr));
  return check_done();
}
