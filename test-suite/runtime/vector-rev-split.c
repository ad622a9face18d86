// Vector split mode: __enzyme_augmentfwd and __enzyme_reverse with
// 'enzyme_width, 2' share one tape for both directions; the reverse half
// takes one adjoint of the result per direction, and returns the gradients
// of active scalars per direction. Heap tapes and inline tapes
// (enzyme_allocated, with __enzyme_augmentsize giving the size) both work.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t -lm && %t
#include "Inputs/check.h"
#include <stddef.h>

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_width,
    enzyme_allocated;
void *__enzyme_augmentfwd(void *, ...);
typedef struct {
  double tape;
} inline_tape;
inline_tape __enzyme_augmentfwd_inline(void *, ...);
typedef struct {
  double dc[2];
} grads2;
grads2 __enzyme_reverse(void *, ...);
size_t __enzyme_augmentsize(void *, ...);
#ifdef ENZYME_RT_SELFTEST
inline_tape __enzyme_augmentfwd_inline(void *f, ...) {
  inline_tape t = {0};
  (void)f;
  return t;
}
#endif

enum { N = 6 };

/* Returns sum c * x_i^2 and scales y in place: y_i = sin(c * y_i). */
__attribute__((noinline)) double f(double c, const double *x, double *y) {
  double s = 0;
  for (int i = 0; i < N; ++i) {
    s += c * x[i] * x[i];
    y[i] = sin(c * y[i]);
  }
  return s;
}

/* One value for the reverse pass: exp(c) is all it needs of the primal. */
__attribute__((noinline)) double e(double c) { return exp(c) * 3.0; }

int main(void) {
  double c = 0.7, x[N], y[N], y0[N];
  for (int i = 0; i < N; ++i) {
    x[i] = 0.3 * i - 0.8;
    y[i] = y0[i] = 0.2 + 0.1 * i;
  }
  double DX[2][N] = {{0}}, DY[2][N] = {{0}};
  for (int i = 0; i < N; ++i)
    DY[1][i] = 1.0; /* Direction 1 also asks for sum_i y_i at the end. */
  void *tape = __enzyme_augmentfwd((void *)f, enzyme_width, 2, enzyme_out, c,
                                   enzyme_dup, x, DX[0], DX[1], enzyme_dup, y,
                                   DY[0], DY[1]);
  /* Direction 0 seeds the result with 1, direction 1 with 2. */
  grads2 g = __enzyme_reverse((void *)f, enzyme_width, 2, enzyme_out, c,
                              enzyme_dup, x, DX[0], DX[1], enzyme_dup, y,
                              DY[0], DY[1], 1.0, 2.0, tape);
  double dc_s = 0, dc_y = 0;
  for (int i = 0; i < N; ++i) {
    dc_s += x[i] * x[i];
    dc_y += cos(c * y0[i]) * y0[i];
  }
  check_close("dc lane 0", g.dc[0], dc_s, RTOL_EXACT, ATOL_EXACT);
  check_close("dc lane 1", g.dc[1], 2 * dc_s + dc_y, RTOL_EXACT, ATOL_EXACT);
  for (int i = 0; i < N; ++i) {
    check_close("dx lane 0", DX[0][i], 2 * c * x[i], RTOL_EXACT, ATOL_EXACT);
    check_close("dx lane 1", DX[1][i], 4 * c * x[i], RTOL_EXACT, ATOL_EXACT);
    check_close("dy0 lane 0", DY[0][i], 0.0, 0, 0);
    check_close("dy0 lane 1", DY[1][i], cos(c * y0[i]) * c, RTOL_EXACT,
                ATOL_EXACT);
  }

  /* An inline tape for both directions of e. */
  size_t bytes =
      __enzyme_augmentsize((void *)e, enzyme_width, 2, enzyme_out);
  check_close("augmentsize", bytes, sizeof(double), 0, 0);
  inline_tape t = __enzyme_augmentfwd_inline(
      (void *)e, enzyme_width, 2, enzyme_allocated, sizeof(double), c);
  grads2 ge = __enzyme_reverse((void *)e, enzyme_width, 2, enzyme_allocated,
                               sizeof(double), c, -1.0, 0.5, t.tape);
  check_close("de lane 0", ge.dc[0], -3 * exp(c), RTOL_EXACT, ATOL_EXACT);
  check_close("de lane 1", ge.dc[1], 1.5 * exp(c), RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
