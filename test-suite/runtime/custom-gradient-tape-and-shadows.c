// A custom gradient of a function with pointer arguments and no body in
// this file's view of the world (declared, defined elsewhere as a library
// would be): the augmented function gets each pointer followed by its
// shadow and returns a tape, the reverse function gets the tape last.
// Called in a loop, so each call's tape must come back to its own reverse.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"
#include <stdlib.h>

void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

// y = exp(x) (a "library" function: only its declaration is visible
// where it is differentiated; its definition is below, outside the request).
void lib_exp(const double *x, double *y);

typedef struct { double saved; } exp_tape;
void *aug_lib_exp(const double *x, double *dx, double *y, double *dy) {
  (void)dx; (void)dy;
  lib_exp(x, y);
  exp_tape *t = (exp_tape *)malloc(sizeof *t);
  t->saved = *y; // exp(x): the derivative
  return t;
}
void rev_lib_exp(const double *x, double *dx, double *y, double *dy,
                 void *tape) {
  (void)x; (void)y;
  exp_tape *t = (exp_tape *)tape;
  *dx += t->saved * *dy;
  *dy = 0;
  free(t);
}
void *__enzyme_register_gradient_lib_exp[3] = {
    (void *)lib_exp, (void *)aug_lib_exp, (void *)rev_lib_exp};

// out = sum_i exp(a[i] * s)
void model(const double *a, double *out, int n) {
  double s = 0.5, acc = 0;
  for (int i = 0; i < n; ++i) {
    double x = a[i] * s, y;
    lib_exp(&x, &y);
    acc += y;
  }
  *out = acc;
}

void lib_exp(const double *x, double *y) { *y = exp(*x); }

int main(void) {
  enum { N = 4 };
  double a[N] = {0.1, -0.7, 1.3, 0.25}, da[N] = {0}, out = 0, dout = 1.0;
  __enzyme_autodiff((void *)model, enzyme_dup, a, da, enzyme_dup, &out, &dout,
                    enzyme_const, N);
  for (int i = 0; i < N; ++i)
    check_close("d out / d a[i]", da[i], 0.5 * exp(0.5 * a[i]), RTOL_EXACT,
                ATOL_EXACT);
  return check_done();
}
