// std::unique_ptr<double[]>, std::unique_ptr<Struct> and std::shared_ptr to
// active data made inside the differentiated function (make_unique,
// make_shared, shared_ptr<double[]>), moved, copied, and passed to a helper
// by value and by reference. The reference counts sit next to the data
// (make_shared): their atomic increments are integer arithmetic and carry
// no derivative. At -O0 unique_ptr's move constructor copies the pointer
// with an 8-byte memcpy five constructors below the variable; its shadow
// must be copied too (it was taken for a double: a null shadow, a crash).
// Reverse and forward mode against analytic values and central differences.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O3 -march=x86-64-v3 %s -o %t && %t
// shared_ptr's control block makes virtual calls, so its requests are
// completed at the link, where instrumented locals are a clear error
// (docs/reliability.md): the sanitizer lines check unique_ptr only.
// RUN: %clangxx_enzyme -fenzyme -O0 -DUNIQUE_ONLY -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 -DUNIQUE_ONLY -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t && %t
#include "Inputs/check.h"

#include <memory>
#include <utility>

template <typename R, typename... Args> R __enzyme_autodiff(Args...);
template <typename R, typename... Args> R __enzyme_fwddiff(Args...);

struct S {
  double a;
  int k;
  double b;
};

/* arr[i] = x (i + 1); s->a = x^2; s->b = sum arr[i] s->a = T x^3 with
 * T = n (n + 1) / 2; returns T x^3 + 3 x^2 after moving s into t. */
double uniq(double x, int n) {
  std::unique_ptr<double[]> arr = std::make_unique<double[]>(n);
  for (int i = 0; i < n; ++i)
    arr[i] = x * (i + 1);
  auto s = std::make_unique<S>();
  s->a = x * x;
  s->k = 3;
  s->b = 0;
  for (int i = 0; i < n; ++i)
    s->b += arr[i] * s->a;
  std::unique_ptr<S> t = std::move(s);
  arr.reset();
  return t->b + t->k * t->a;
}

/* p, q, r share one S; r->a *= x makes a = x^2; arr[i] = (1 + i) x^2;
 * returns Q x^4 + use_count with Q = sum (1 + i)^2. */
double shared(double x, int n) {
  auto p = std::make_shared<S>(S{x, 2, x * x});
  std::shared_ptr<S> q = p;
  {
    std::shared_ptr<S> r = q;
    r->a *= x;
  }
  std::shared_ptr<double[]> arr(new double[n]);
  for (int i = 0; i < n; ++i)
    arr[i] = p->a + i * q->b;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += arr[i] * arr[i];
  return s + p.use_count();
}

__attribute__((noinline)) double use(std::shared_ptr<S> p,
                                     const std::unique_ptr<S> &u) {
  return p->a * u->b + p->b;
}

/* p = {x, 1, 2x}, u->b = x^3: 2 (x^4 + 2x). */
double passed(double x) {
  auto p = std::make_shared<S>(S{x, 1, 2 * x});
  auto u = std::make_unique<S>(S{0, 0, x * x * x});
  return use(p, u) + use(p, u);
}

int main() {
  const int n = 5;
  const double T = n * (n + 1) / 2.0, Q = n * (n + 1) * (2 * n + 1) / 6.0;
  char name[64];
  for (double x : {0.7, -1.3}) {
    auto fu = [](double v) { return uniq(v, 5); };
    double expect = 3 * T * x * x + 6 * x, fd = fd_diff1(fu, x);
    snprintf(name, sizeof name, "unique_ptr rev at %g", x);
    check_grad(name, __enzyme_autodiff<double>(uniq, x, n), expect, fd);
    snprintf(name, sizeof name, "unique_ptr fwd at %g", x);
    check_grad(name, __enzyme_fwddiff<double>(uniq, x, 1.0, n), expect, fd);

#ifndef UNIQUE_ONLY
    auto fs = [](double v) { return shared(v, 5); };
    expect = 4 * Q * x * x * x;
    fd = fd_diff1(fs, x);
    snprintf(name, sizeof name, "shared_ptr rev at %g", x);
    check_grad(name, __enzyme_autodiff<double>(shared, x, n), expect, fd);
    snprintf(name, sizeof name, "shared_ptr fwd at %g", x);
    check_grad(name, __enzyme_fwddiff<double>(shared, x, 1.0, n), expect, fd);

    expect = 8 * x * x * x + 4;
    fd = fd_diff1(passed, x);
    snprintf(name, sizeof name, "passed rev at %g", x);
    check_grad(name, __enzyme_autodiff<double>(passed, x), expect, fd);
    snprintf(name, sizeof name, "passed fwd at %g", x);
    check_grad(name, __enzyme_fwddiff<double>(passed, x, 1.0), expect, fd);
#endif
  }
  return check_done();
}
