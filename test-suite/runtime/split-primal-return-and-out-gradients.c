// Split mode of a function that returns a double and takes active scalars:
// __enzyme_augmentfwd returns {tape, primal result} when declared to return
// such a struct (or with enzyme_primal_return), __enzyme_reverse takes the
// adjoint of the result before the tape and returns the gradients of the
// enzyme_out arguments as a struct, in order.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

typedef struct { void *tape; double primal; } aug_result;
typedef struct { double da, db; } grads;
aug_result __enzyme_augmentfwd(void *, ...);
grads __enzyme_reverse(void *, ...);
extern int enzyme_dup, enzyme_out, enzyme_primal_return;

// Writes a*a to *w and returns sin(a) * b * *w.
__attribute__((noinline)) double f(double a, double b, double *w) {
  *w = a * a;
  return sin(a) * b * *w;
}

static double f_value(double a, double b) {
  double w;
  return f(a, b, &w);
}

int main(void) {
  double a = 0.7, b = -1.3, w = 0, dw = 0.5;
  aug_result r = __enzyme_augmentfwd((void *)f, enzyme_out, a, enzyme_out, b,
                                     enzyme_dup, &w, &dw, enzyme_primal_return);
  check_close("primal", r.primal, sin(a) * b * a * a, RTOL_EXACT, ATOL_EXACT);
  check_close("w", w, a * a, RTOL_EXACT, ATOL_EXACT);
  double dret = 2.0;
  grads g = __enzyme_reverse((void *)f, enzyme_out, a, enzyme_out, b,
                             enzyme_dup, &w, &dw, dret, r.tape);
  // d/da [dret * sin(a) b a^2 + dw * a^2] with dw the seed of *w.
  double da = dret * b * (cos(a) * a * a + 2 * a * sin(a)) + 0.5 * 2 * a;
  double db = dret * sin(a) * a * a;
  check_grad("d/da", g.da, da,
             dret * fd_diff2(f_value, a, b, 0) + 0.5 * 2 * a);
  check_grad("d/db", g.db, db, dret * fd_diff2(f_value, a, b, 1));
  check_close("dw consumed", dw, 0.0, 0.0, 0.0);
  return check_done();
}
