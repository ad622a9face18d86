// One helper called from two places with different activity: first with an
// active pointer and a constant scalar, then with a constant pointer and an
// active scalar. f = c0 (x0 + x1) * x0 (c0 + c1).
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

__attribute__((noinline)) static double scaled_sum(const double *v, double k) {
  return k * (v[0] + v[1]);
}

double f(const double *x, const double *c) { return scaled_sum(x, c[0]) * scaled_sum(c, x[0]); }

static double f_x(const double *x, void *c) { return f(x, (const double *)c); }

int main(void) {
  double x[2] = {0.6, -1.3}, dx[2] = {0, 0}, c[2] = {1.5, 0.25};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, c);
  double cs = c[0] + c[1];
  check_grad("d/dx0", dx[0], c[0] * x[0] * cs + c[0] * (x[0] + x[1]) * cs,
             fd_partial(f_x, x, 2, 0, c));
  check_grad("d/dx1", dx[1], c[0] * x[0] * cs, fd_partial(f_x, x, 2, 1, c));
  return check_done();
}
