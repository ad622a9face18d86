// At -O0 a function spills its pointer parameter to a local and passes the
// local's address to a call (peek(&first), as libstdc++'s
// std::__iterator_category(first) does); the pointer read back from the
// local is the enzyme_const one, so it has no shadow. The local's shadow
// slot holds null: the engine used to take the reloaded pointer as
// shadowed, and the gradient program died adding into that null shadow in
// the reverse of memmove (forward mode read through it). Also: the same
// slot holding an enzyme_dup pointer (its derivative is kept), and a callee
// that writes a pointer with a shadow into the slot (pick), whose reload
// keeps that shadow.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O0 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t -lm && %t
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_const, enzyme_dup, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static int peek(const double *const *p) { return *p != NULL; }
static void pick(const double **slot, const double *alt) { *slot = alt; }

static void copy_in(double *dst, const double *first, const double *last) {
  peek(&first); // the local holding `first` escapes
  memmove(dst, first, (last - first) * sizeof(double));
}

/* sum of squares of {a, c[1]}: d/da = 2 a, d/dc = {0, 2 c[1]}. */
static double squares(const double *c, double a) {
  double *v = malloc(2 * sizeof(double));
  copy_in(v, c, c + 2);
  v[0] = a;
  double s = v[0] * v[0] + v[1] * v[1];
  free(v);
  return s;
}

/* The slot starts with c (constant); pick() stores alt (with a shadow). */
static double squares_picked(const double *c, const double *alt, double a) {
  const double *first = c;
  pick(&first, alt);
  double *v = malloc(2 * sizeof(double));
  memmove(v, first, 2 * sizeof(double));
  v[0] = a;
  double s = v[0] * v[0] + v[1] * v[1];
  free(v);
  return s;
}

static const double C[2] = {1.5, -0.5};
static double squares_of_a(double a) { return squares(C, a); }

int main(void) {
  double a = 0.75;
  double g = __enzyme_autodiff((void *)squares, enzyme_const, C, a);
  check_grad("const reverse d/da", g, 2 * a, fd_diff1(squares_of_a, a));
  double t = __enzyme_fwddiff((void *)squares, enzyme_const, C, a, 1.0);
  check_grad("const forward d/da", t, 2 * a, fd_diff1(squares_of_a, a));

  double x[2] = {1.5, -0.5}, dx[2] = {0, 0};
  g = __enzyme_autodiff((void *)squares, enzyme_dup, x, dx, a);
  check_close("dup reverse d/da", g, 2 * a, 1e-12, 1e-12);
  check_close("dup reverse d/dx0", dx[0], 0, 1e-12, 1e-12);
  check_close("dup reverse d/dx1", dx[1], 2 * x[1], 1e-12, 1e-12);
  double tx[2] = {1, 1};
  t = __enzyme_fwddiff((void *)squares, enzyme_dup, x, tx, a, 0.0);
  check_close("dup forward d/dx", t, 2 * x[1], 1e-12, 1e-12);

  double y[2] = {2.0, 3.0}, dy[2] = {0, 0};
  g = __enzyme_autodiff((void *)squares_picked, enzyme_const, C, enzyme_dup,
                        y, dy, a);
  check_close("picked reverse d/da", g, 2 * a, 1e-12, 1e-12);
  check_close("picked reverse d/dy1", dy[1], 2 * y[1], 1e-12, 1e-12);
  double ty[2] = {1, 1};
  t = __enzyme_fwddiff((void *)squares_picked, enzyme_const, C, enzyme_dup, y,
                       ty, a, 0.0);
  check_close("picked forward d/dy", t, 2 * y[1], 1e-12, 1e-12);
  return check_done();
}
