// A loop with continue and a data-dependent break.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

/* Sums x^(i+1) over i < n, skipping i % 3 == 1, stopping once the sum
 * exceeds 50. */
double f(double x, int n) {
  double s = 0, t = 1;
  for (int i = 0; i < n; i++) {
    t *= x;
    if (i % 3 == 1)
      continue;
    s += t;
    if (s > 50.0)
      break;
  }
  return s;
}

/* The same walk, summing the derivatives (i+1) x^i of the included terms. */
static double df(double x, int n) {
  double s = 0, d = 0;
  for (int i = 0; i < n; i++) {
    if (i % 3 == 1)
      continue;
    s += pow(x, i + 1);
    d += (i + 1) * pow(x, i);
    if (s > 50.0)
      break;
  }
  return d;
}

static int n_now;
static double f_n(double x) { return f(x, n_now); }

int main(void) {
  const double xs[2] = {1.1, 1.9}; /* 1.9: the break is taken */
  n_now = 12;
  for (int i = 0; i < 2; i++) {
    double x = xs[i];
    check_grad_at("d/dx", x, __enzyme_autodiff((void *)f, x, n_now), df(x, n_now),
                  fd_diff1(f_n, x));
  }
  return check_done();
}
