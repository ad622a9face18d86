// A call through a function pointer one of whose possible targets calls
// through a pointer of the same type again (as Eigen's predux_helper ->
// pmax -> pminmax_impl::run do at -O0): both calls share one dispatcher per
// mode, built once. A forward request that fails after building that
// dispatcher reports its own error, and no other request fails; rolling it
// back used to take the dispatcher twice and crash the linker.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
// RUN: not %clangxx_enzyme -fenzyme -O0 -DFAILING_REQUEST %s -o %t.fail 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not='cannot differentiate' \
// RUN:       --implicit-check-not='Stack dump'
#include "Inputs/check.h"
#include <cstdarg>

template <typename R, typename... Args> R __enzyme_autodiff(Args...);
template <typename R, typename... Args> R __enzyme_fwddiff(Args...);
extern int enzyme_dup, enzyme_out;

typedef double (*binop)(const double &, const double &);

__attribute__((noinline)) double mul(const double &a, const double &b) {
  return a * b;
}
__attribute__((noinline)) double apply_inner(const double &a, const double &b,
                                             binop op) {
  return op(a, b);
}
// A possible target of the outer call that calls through a binop itself.
__attribute__((noinline)) double mul_via(const double &a, const double &b) {
  return apply_inner(a, b, mul) + sin(b);
}
__attribute__((noinline)) double apply_outer(const double &a, const double &b,
                                             binop op) {
  return op(a, b) * a;
}

// (x^2 + sin x) x: derivative 3 x^2 + sin x + x cos x.
double f(double x) { return apply_outer(x, x, mul_via); }
static double df(double x) { return 3 * x * x + sin(x) + x * cos(x); }

#ifdef FAILING_REQUEST
__attribute__((noinline)) double vsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += va_arg(ap, double);
  va_end(ap);
  return s;
}
__attribute__((noinline)) double sum1(double x) { return vsum(1, x); }
// Fails in sum1, after the dispatcher of the calls through binop is built.
double g(double x) { return apply_outer(x, x, mul_via) + sum1(x); }
#endif

int main() {
  double x = 0.7;
#ifdef FAILING_REQUEST
  // First, so that it is the request that builds the dispatcher.
  double dg = __enzyme_fwddiff<double>((void *)g, enzyme_dup, x, 1.0);
  // CHECK: error: {{.*}}recursive-dispatch.cpp:[[@LINE-1]]:{{[0-9]+}}:
  // CHECK-SAME: cannot differentiate 'g(double)': cannot differentiate a
  // CHECK-SAME: call to the variadic function 'vsum(int, ...)'
  (void)dg;
#endif
  check_grad("forward", __enzyme_fwddiff<double>((void *)f, enzyme_dup, x, 1.0),
             df(x), fd_diff1(f, x));
  check_grad("reverse", __enzyme_autodiff<double>((void *)f, enzyme_out, x),
             df(x), fd_diff1(f, x));
  return check_done();
}
