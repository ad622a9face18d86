// A std::list<double> of active values built inside the differentiated
// function (push_back, push_front, insert), walked both ways, with nodes
// erased: libstdc++ links and unlinks nodes in the shared library
// (_List_node_base::_M_hook/_M_unhook), which the engine restates so that
// the shadow nodes are linked like the nodes. Reverse and forward mode
// against a dual-number evaluation of the same code and central
// differences.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O3 -march=x86-64-v3 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O0 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t && %t
#include "Inputs/check.h"

#include <iterator>
#include <list>
#include <type_traits>

template <typename R, typename... Args> R __enzyme_autodiff(Args...);
template <typename R, typename... Args> R __enzyme_fwddiff(Args...);

/* A value and its derivative in x, for the expected gradient. */
struct Dual {
  double v, d;
};
static Dual operator+(Dual a, Dual b) { return {a.v + b.v, a.d + b.d}; }
static Dual operator*(Dual a, Dual b) {
  return {a.v * b.v, a.d * b.v + a.v * b.d};
}
template <typename T> static T constant(double c) {
  if constexpr (std::is_same_v<T, Dual>)
    return Dual{c, 0};
  else
    return c;
}

template <typename T> T walk(T x, int n) {
  std::list<T> l;
  for (int k = 0; k < n; ++k) {
    l.push_back(x * constant<T>(k + 1));
    l.push_front(x * x + constant<T>(k));
  }
  l.insert(std::next(l.begin(), 3), x * x * x);
  int i = 0;
  for (auto it = l.begin(); it != l.end();) {
    if (i++ % 3 == 0)
      it = l.erase(it);
    else
      ++it;
  }
  l.pop_back();
  T s = constant<T>(0), w = constant<T>(1);
  for (auto it = l.rbegin(); it != l.rend(); ++it) {
    s = s + w * *it * *it;
    w = w + constant<T>(0.5);
  }
  return s + l.front() * constant<T>(l.size());
}

double f(double x, int n) { return walk(x, n); }

int main() {
  char name[64];
  for (double x : {0.7, -1.3}) {
    for (int n : {2, 5, 9}) {
      Dual e = walk(Dual{x, 1}, n);
      volatile double xp = x + fd_step(x), xm = x - fd_step(x);
      double fd = (f(xp, n) - f(xm, n)) / (xp - xm);
      snprintf(name, sizeof name, "list rev at %g, n %d", x, n);
      check_grad(name, __enzyme_autodiff<double>(f, x, n), e.d, fd);
      snprintf(name, sizeof name, "list fwd at %g, n %d", x, n);
      check_grad(name, __enzyme_fwddiff<double>(f, x, 1.0, n), e.d, fd);
    }
  }
  return check_done();
}
