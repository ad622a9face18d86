// A local struct that only views enzyme_const memory (a pointer to it and a
// length) is passed by address to a helper that is not inlined, beside one
// viewing duplicated memory; the same helper is called with the views
// swapped. The local has a shadow like every local, but its pointer's
// shadow is null: the helper used to receive that shadow and the gradient
// program died adding into it (forward mode read through it, and -O2 let
// the optimiser delete the program's output). A local into which nothing
// with a derivative is stored now goes to callees without its shadow.
// Under UBSan at -O2 the helper also passes the views to llvm.objectsize,
// which only asks for their size (it was taken for a write).
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O0 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_const, enzyme_dup;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

struct view {
  const double *p;
  int n;
  double scale; /* an inactive float beside the pointer */
};

__attribute__((noinline)) static double dot(const struct view *a,
                                            const struct view *b) {
  double s = 0;
  for (int i = 0; i < a->n; i++)
    s += a->p[i] * b->p[i];
  return s * a->scale * b->scale;
}

/* f(x) = dot(x, c) + dot(c, x) * x[0] */
static double f(const double *x, const double *c, int n) {
  struct view a = {x, n, 1.0}, b = {c, n, 0.5};
  return dot(&a, &b) + dot(&b, &a) * x[0];
}

static const double C[3] = {1.5, -2.0, 0.25};
static double f_of(const double *x, void *ctx) {
  (void)ctx;
  return f(x, C, 3);
}

int main(void) {
  double x[3] = {0.5, 1.25, -0.75}, dx[3] = {0, 0, 0};
  double xc = 0.5 * (x[0] * C[0] + x[1] * C[1] + x[2] * C[2]);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, C,
                    enzyme_const, 3);
  for (int i = 0; i < 3; i++) {
    double analytic = 0.5 * C[i] * (1 + x[0]) + (i == 0 ? xc : 0);
    check_grad("reverse d/dx", dx[i], analytic, fd_partial(f_of, x, 3, i, 0));
    double tx[3] = {0, 0, 0};
    tx[i] = 1;
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, tx, enzyme_const,
                                C, enzyme_const, 3);
    check_grad("forward d/dx", t, analytic, fd_partial(f_of, x, 3, i, 0));
  }
  return check_done();
}
