// switch on a constant integer selecting different active expressions.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);
extern int enzyme_out, enzyme_const;

double f(double x, int k) {
  double r = 0;
  switch (k) {
  case 0:
    r = x * x;
    break;
  case 1:
    r = sin(x);
    break;
  case 2:
    r = exp(x) * x;
    /* fall through */
  case 3:
    r += 0.5 * x;
    break;
  default:
    r = 7 * x;
  }
  return r;
}

static int k_now;
static double f_k(double x) { return f(x, k_now); }

int main(void) {
  double x = 0.6;
  double d[5] = {2 * x, cos(x), exp(x) * (1 + x) + 0.5, 0.5, 7};
  for (int k = 0; k < 5; k++) {
    k_now = k;
    double g = __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_const, k);
    check_grad_at("d/dx for case k", k, g, d[k], fd_diff1(f_k, x));
  }
  return check_done();
}
