// Forward mode through calls through pointers: a C callback passed as a
// const argument, virtual methods on an object passed with enzyme_dup (the
// shadow object is zeroed memory, vtable pointer included) and
// std::function. Each tangent is checked against the analytic derivative.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"
#include <cstring>
#include <functional>

template <typename R, typename... Args> R __enzyme_fwddiff(Args...);
extern int enzyme_dup, enzyme_const;

typedef double (*unary)(double);
double cube(double t) { return t * t * t; }
double wave(double t) { return sin(3 * t); }
__attribute__((noinline)) double apply(unary f, double x) { return f(x) * x; }

struct Shape {
  double scale = 2.0;
  virtual double area(double s) const = 0;
  virtual ~Shape() {}
};
struct Square : Shape {
  double area(double s) const override { return scale * s * s; }
};
struct Disc : Shape {
  double area(double s) const override { return scale * 3.0 * s * s * s; }
};
__attribute__((noinline)) double total(const Shape *shape, double s) {
  return shape->area(s) + shape->area(2 * s);
}

double via_function(double x) {
  double k = 0.5 * x;
  std::function<double(double)> f = [k](double y) { return sin(y) * k; };
  return f(x) * 2;
}

int main() {
  double x = 0.7;
  unary fs[2] = {cube, wave};
  double want[2] = {4 * x * x * x, sin(3 * x) + 3 * x * cos(3 * x)};
  for (int k = 0; k < 2; ++k)
    check_close(k ? "wave" : "cube",
                __enzyme_fwddiff<double>((void *)apply, enzyme_const, fs[k],
                                         enzyme_dup, x, 1.0),
                want[k], RTOL_EXACT, ATOL_EXACT);

  Square square;
  Disc disc;
  const Shape *shapes[2] = {&square, &disc};
  for (int k = 0; k < 2; ++k) {
    alignas(Shape) unsigned char storage[sizeof(Square) > sizeof(Disc)
                                             ? sizeof(Square)
                                             : sizeof(Disc)];
    std::memset(storage, 0, sizeof storage);
    auto *dshape = reinterpret_cast<Shape *>(storage);
    double s = 1.5;
    // d/ds: Square 5 scale s^2 -> 10 scale s; Disc 27 scale s^3 -> 81 scale s^2.
    double want_ds = k == 0 ? 10 * 2.0 * s : 81 * 2.0 * s * s;
    check_close(k ? "disc" : "square",
                __enzyme_fwddiff<double>((void *)total, enzyme_dup, shapes[k],
                                         dshape, enzyme_dup, s, 1.0),
                want_ds, RTOL_EXACT, ATOL_EXACT);
  }

  // 2 sin(x) x/2: derivative cos(x) x + sin(x).
  check_close("std::function",
              __enzyme_fwddiff<double>((void *)via_function, enzyme_dup, x, 1.0),
              cos(x) * x + sin(x), RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
