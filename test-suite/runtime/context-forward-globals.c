// Forward mode with a context (enzyme_context): the user seeds the tangent
// of a global in its context shadow, and reads there the tangent of what
// the function stored into a global.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t.asan -lm && %t.asan
#include "Inputs/check.h"

#include <enzyme/enzyme.h>

double __enzyme_fwddiff(void *, ...);

double k = 1.5;
double state[2];

/* Stores x k and sin(x) into state; returns k x^2. */
double f(double x) {
  state[0] = x * k;
  state[1] = sin(x);
  return k * x * x;
}

static double f_value(double x) { return f(x); }
static double f_of_k(double kk) {
  double saved = k;
  k = kk;
  double r = f(0.6);
  k = saved;
  return r;
}

int main(void) {
  void *ctx = __enzyme_context();
  double x = 0.6;
  double *dk = (double *)__enzyme_shadow(ctx, &k, 0);
  double *dstate = (double *)__enzyme_shadow(ctx, state, 0);

  /* Along x: the tangent of k is zero. */
  *dk = 0;
  check_grad("along x", __enzyme_fwddiff((void *)f, enzyme_context, ctx, x,
                                         1.0),
             2 * k * x, fd_diff1(f_value, x));
  check_close("state[0] along x", dstate[0], k, RTOL_EXACT, ATOL_EXACT);
  check_close("state[1] along x", dstate[1], cos(x), RTOL_EXACT, ATOL_EXACT);

  /* Along k: seed the tangent of the global. */
  *dk = 1;
  check_grad("along k", __enzyme_fwddiff((void *)f, enzyme_context, ctx, x,
                                         0.0),
             x * x, fd_diff1(f_of_k, k));
  check_close("state[0] along k", dstate[0], x, RTOL_EXACT, ATOL_EXACT);
  check_close("state[1] along k", dstate[1], 0.0, 0.0, 0.0);
  check_close("k's tangent kept", *dk, 1.0, 0.0, 0.0);
  __enzyme_free_context(ctx);
  return check_done();
}
