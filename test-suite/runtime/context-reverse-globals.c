// Reverse mode with a context (enzyme_context): mutable globals without a
// declared shadow take one from the context, which the user seeds and reads
// with __enzyme_shadow. Covers a global read by the function, a global
// written then read (an accumulator), a global array, a global read only in
// a callee that takes no argument, accumulation across two calls and
// __enzyme_zero_shadows, and two contexts holding different shadows.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t.asan -lm && %t.asan
#include "Inputs/check.h"

#include <enzyme/enzyme.h>

double __enzyme_autodiff(void *, ...);

double k = 1.5;
double acc;
double w[3] = {0.5, -1.25, 2.0};

/* f(x) = k x^2 + sin(k): df/dx = 2 k x, df/dk = x^2 + cos(k). */
double with_k(double x) { return k * x * x + sin(k); }

/* acc is overwritten first, then accumulated, then read. */
double accumulate(double x) {
  acc = 0;
  for (int i = 1; i <= 3; ++i)
    acc += i * x * x;
  return acc * k;
}

double weighted(const double *x) {
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += w[i] * x[i] * x[i];
  return s;
}

__attribute__((noinline)) double get_k(void) { return k; }
double via_callee(double x) { return get_k() * exp(x); }

static double with_k_value(double x) { return with_k(x); }
static double k_as_input(double kk) {
  double saved = k;
  k = kk;
  double r = with_k(0.75);
  k = saved;
  return r;
}

int main(void) {
  void *ctx = __enzyme_context();
  double x = 0.75;

  /* A global read by the function. */
  double *dk = (double *)__enzyme_shadow(ctx, &k, ENZYME_SHADOW_ZERO);
  check_grad("d/dx with_k",
             __enzyme_autodiff((void *)with_k, enzyme_context, ctx, x),
             2 * k * x, fd_diff1(with_k_value, x));
  check_grad("d/dk with_k", *dk, x * x + cos(k), fd_diff1(k_as_input, k));
  if (__enzyme_shadow(ctx, &k, 0) != (void *)dk)
    check_close("same shadow", 0, 1, 0, 0);

  /* Accumulation across calls, then zeroing every shadow. */
  __enzyme_autodiff((void *)with_k, enzyme_context, ctx, x);
  check_close("d/dk accumulates", *dk, 2 * (x * x + cos(k)), RTOL_EXACT,
              ATOL_EXACT);
  __enzyme_zero_shadows(ctx);
  check_close("zeroed", *dk, 0.0, 0.0, 0.0);

  /* Written then read: the seed on acc at the end flows back to x; acc is
     overwritten, so its shadow is consumed. */
  double *dacc = (double *)__enzyme_shadow(ctx, &acc, 0);
  *dacc = 0.5;
  double g = __enzyme_autodiff((void *)accumulate, enzyme_context, ctx, x);
  check_close("d/dx accumulate", g, 12 * x * k + 0.5 * 12 * x, RTOL_EXACT,
              ATOL_EXACT);
  check_close("d/dk accumulate", *dk, 6 * x * x, RTOL_EXACT, ATOL_EXACT);
  check_close("acc consumed", *dacc, 0.0, 0.0, 0.0);

  /* A global array, and an address inside it. */
  double xs[3] = {0.3, -0.7, 1.1}, dxs[3] = {0, 0, 0};
  double *dw = (double *)__enzyme_shadow(ctx, w, ENZYME_SHADOW_ZERO);
  if ((double *)__enzyme_shadow(ctx, &w[2], 0) != dw + 2)
    check_close("element shadow", 0, 1, 0, 0);
  __enzyme_autodiff((void *)weighted, enzyme_context, ctx, enzyme_dup, xs,
                    dxs);
  for (int i = 0; i < 3; ++i) {
    check_close("d/dx weighted", dxs[i], 2 * w[i] * xs[i], RTOL_EXACT,
                ATOL_EXACT);
    check_close("d/dw weighted", dw[i], xs[i] * xs[i], RTOL_EXACT, ATOL_EXACT);
  }

  /* Read only in a callee without arguments. */
  *dk = 0;
  check_close("d/dx via_callee",
              __enzyme_autodiff((void *)via_callee, enzyme_context, ctx, x),
              k * exp(x), RTOL_EXACT, ATOL_EXACT);
  check_close("d/dk via_callee", *dk, exp(x), RTOL_EXACT, ATOL_EXACT);

  /* Two contexts: each keeps its own shadows. */
  void *other = __enzyme_context();
  double *dk2 = (double *)__enzyme_shadow(other, &k, 0);
  *dk = 0;
  __enzyme_autodiff((void *)with_k, enzyme_context, other, 2 * x);
  __enzyme_autodiff((void *)with_k, enzyme_context, ctx, x);
  check_close("ctx", *dk, x * x + cos(k), RTOL_EXACT, ATOL_EXACT);
  check_close("other ctx", *dk2, 4 * x * x + cos(k), RTOL_EXACT, ATOL_EXACT);
  if (dk2 == dk)
    check_close("distinct shadows", 0, 1, 0, 0);
  __enzyme_free_context(other);
  __enzyme_free_context(ctx);
  __enzyme_free_context(0); /* like free(NULL) */
  return check_done();
}
