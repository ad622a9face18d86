// A custom forward derivative (__enzyme_register_derivative, or the
// enzyme("forward", ...) attribute) replaces differentiation of the
// function in forward mode, wherever it is called: here one with no body
// in view returning the tangent alone (the result comes from the function
// itself), and one returning {result, tangent}. The registered derivatives
// are deliberately not the bodies' (+1), so ignoring them would be caught.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const;
double __enzyme_fwddiff(void *, ...);

double lib_sq(double x); // defined below, out of the request's view
double fwd_lib_sq(double x, double dx) { return (2 * x + 1) * dx; }
void *__enzyme_register_derivative_lib_sq[2] = {(void *)lib_sq,
                                                (void *)fwd_lib_sq};

typedef struct { double value, tangent; } dual;
// Scales *p by s and returns the old value.
double scale(double *p, double s) {
  double old = *p;
  *p *= s;
  return old;
}
dual fwd_scale(double *p, double *dp, double s, double ds);
__attribute__((enzyme("forward", fwd_scale))) double scale(double *p, double s);
dual fwd_scale(double *p, double *dp, double s, double ds) {
  dual r = {*p, *dp + 1}; // the old value and its tangent, plus 1
  double old = *p;
  *p = old * s;
  *dp = *dp * s + old * ds;
  return r;
}

double f(double x) {
  double y = lib_sq(x) * 3;
  double old = scale(&y, x);
  return y + old;
}

int main(void) {
  double x = 0.6;
  // y0 = 3 sq(x), d y0 = 3 (2x + 1); old = y0, d old = d y0 + 1;
  // y = y0 x, dy = d y0 x + y0.
  double y0 = 3 * x * x, dy0 = 3 * (2 * x + 1);
  double want = dy0 * x + y0 + dy0 + 1;
  check_close("custom forward derivatives",
              __enzyme_fwddiff((void *)f, x, 1.0), want, RTOL_EXACT,
              ATOL_EXACT);
  return check_done();
}

double lib_sq(double x) { return x * x; }
