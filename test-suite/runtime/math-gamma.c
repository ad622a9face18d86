// lgamma and tgamma: d lgamma = digamma, d tgamma = tgamma * digamma.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

static double f_lgamma(double x) { return lgamma(x); }
static double f_tgamma(double x) { return tgamma(x); }

/* digamma is not in libm: the engine and ref_digamma approximate it
 * independently, so the analytic comparison allows 1e-10. */
#define CHECK_GAMMA(fn, x, d)                                                  \
  check_grad_tol(#fn, __enzyme_autodiff((void *)f_##fn, x), d, fd_diff1(f_##fn, x), 1e-10)

int main(void) {
  const double xs[4] = {0.5, 2.5, 4.2, -0.5};
  for (int i = 0; i < 4; i++) {
    double x = xs[i];
    CHECK_GAMMA(lgamma, x, ref_digamma(x));
    CHECK_GAMMA(tgamma, x, tgamma(x) * ref_digamma(x));
  }
  return check_done();
}
