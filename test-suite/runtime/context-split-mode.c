// Split mode with a context: both halves get the same context, and the
// reverse half accumulates the gradient of the global there.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t.asan -lm && %t.asan
#include "Inputs/check.h"

#include <enzyme/enzyme.h>

void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

double scale = 2.5;
double last;

/* last = scale x^3 (written, then read); *y = 2 last. */
void cube(const double *x, double *y) {
  last = scale * *x * *x * *x;
  *y = 2 * last;
}

static double cube_of_scale(double s) {
  double saved = scale, x = 0.8, y;
  scale = s;
  cube(&x, &y);
  scale = saved;
  return y;
}
static double cube_of_x(double xx) {
  double y;
  cube(&xx, &y);
  return y;
}

int main(void) {
  void *ctx = __enzyme_context();
  double x = 0.8, dx = 0, y = 0, dy = 1;
  double *dscale = (double *)__enzyme_shadow(ctx, &scale, ENZYME_SHADOW_ZERO);
  void *tape = __enzyme_augmentfwd((void *)cube, enzyme_context, ctx,
                                   enzyme_dup, &x, &dx, enzyme_dup, &y, &dy);
  check_close("primal", y, 2 * scale * x * x * x, RTOL_EXACT, ATOL_EXACT);
  __enzyme_reverse((void *)cube, enzyme_context, ctx, enzyme_dup, &x, &dx,
                   enzyme_dup, &y, &dy, tape);
  check_grad("d/dx", dx, 6 * scale * x * x, fd_diff1(cube_of_x, x));
  check_grad("d/dscale", *dscale, 2 * x * x * x, fd_diff1(cube_of_scale, scale));
  __enzyme_free_context(ctx);
  return check_done();
}
