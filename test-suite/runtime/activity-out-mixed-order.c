// Active scalars interleaved with dup and const arguments: the returned struct
// holds only the enzyme_out gradients, in argument order.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

typedef struct { double da, db; } grad2;
grad2 __enzyme_autodiff(void *, ...);
extern int enzyme_out, enzyme_dup, enzyme_const;

double f(double a, double *p, int n, double b, double c) {
  return a * p[0] * n + b * b * c + p[1] * c;
}

int main(void) {
  double a = 0.5, b = -1.5, c = 2.0;
  int n = 3;
  double p[2] = {1.25, 4.0}, dp[2] = {0, 0};
  grad2 g = __enzyme_autodiff((void *)f, enzyme_out, a, enzyme_dup, p, dp, enzyme_const, n,
                              enzyme_out, b, enzyme_const, c);
  check_close("d/da", g.da, p[0] * n, RTOL_EXACT, ATOL_EXACT);
  check_close("d/db", g.db, 2 * b * c, RTOL_EXACT, ATOL_EXACT);
  check_close("d/dp0", dp[0], a * n, RTOL_EXACT, ATOL_EXACT);
  check_close("d/dp1", dp[1], c, RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
