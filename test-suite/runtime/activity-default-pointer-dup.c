// An unmarked pointer is enzyme_dup: the next argument is its shadow.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

void __enzyme_autodiff(void *, ...);

double f(double *x) { return x[0] * x[0] * x[1]; }

static double f_v(const double *x, void *ctx) { (void)ctx; return f((double *)x); }

int main(void) {
  double x[2] = {1.2, -0.9}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)f, x, dx);
  check_grad("d/dx0", dx[0], 2 * x[0] * x[1], fd_partial(f_v, x, 2, 0, 0));
  check_grad("d/dx1", dx[1], x[0] * x[0], fd_partial(f_v, x, 2, 1, 0));
  return check_done();
}
