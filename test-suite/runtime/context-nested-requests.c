// Requests nest: a request with its own context, made by an inactive
// function while another request's derivative runs, uses its context and
// restores the outer one, whose shadows the outer reverse pass then uses.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t.asan -lm && %t.asan
#include "Inputs/check.h"

#include <enzyme/enzyme.h>

double __enzyme_autodiff(void *, ...);

double k = 1.5, m = 2.0;
void *inner_ctx;
double inner_grad;

double inner(double y) { return m * y * y + k; }

__attribute__((enzyme_inactive)) __attribute__((noinline)) void
side(double y) {
  inner_grad = __enzyme_autodiff((void *)inner, enzyme_context, inner_ctx, y);
}

double outer(double x) {
  side(x);
  return k * m * x;
}

int main(void) {
  void *ctx = __enzyme_context();
  inner_ctx = __enzyme_context();
  double x = 0.4;
  double *dk = (double *)__enzyme_shadow(ctx, &k, 0);
  double *dm = (double *)__enzyme_shadow(ctx, &m, 0);
  double *inner_dk = (double *)__enzyme_shadow(inner_ctx, &k, 0);
  double *inner_dm = (double *)__enzyme_shadow(inner_ctx, &m, 0);
  double g = __enzyme_autodiff((void *)outer, enzyme_context, ctx, x);
  check_close("d/dx outer", g, k * m, RTOL_EXACT, ATOL_EXACT);
  check_close("d/dk outer", *dk, m * x, RTOL_EXACT, ATOL_EXACT);
  check_close("d/dm outer", *dm, k * x, RTOL_EXACT, ATOL_EXACT);
  check_close("d/dy inner", inner_grad, 2 * m * x, RTOL_EXACT, ATOL_EXACT);
  check_close("d/dk inner", *inner_dk, 1.0, RTOL_EXACT, ATOL_EXACT);
  check_close("d/dm inner", *inner_dm, x * x, RTOL_EXACT, ATOL_EXACT);
  __enzyme_free_context(inner_ctx);
  __enzyme_free_context(ctx);
  return check_done();
}
