// A small value class with overloaded operators. With u = (a, b),
// v = u*a + (b, 1): f = v.u = a^3 + ab + ab^2 + b.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"

struct grad2 {
  double da, db;
};
template <typename R, typename... Args> R __enzyme_autodiff(Args...);

struct Vec2 {
  double x, y;
  Vec2 operator+(const Vec2 &o) const { return {x + o.x, y + o.y}; }
  Vec2 operator*(double s) const { return {x * s, y * s}; }
  double dot(const Vec2 &o) const { return x * o.x + y * o.y; }
};

double f(double a, double b) {
  Vec2 u{a, b};
  Vec2 v = u * a + Vec2{b, 1.0};
  return v.dot(u);
}

int main() {
  double a = 0.7, b = -1.2;
  grad2 g = __enzyme_autodiff<grad2>(f, a, b);
  check_grad("d/da", g.da, 3 * a * a + b + b * b, fd_diff2(f, a, b, 0));
  check_grad("d/db", g.db, a + 2 * a * b + 1, fd_diff2(f, a, b, 1));
  return check_done();
}
