// Regression test (found by scripts/fuzz, seed 880062): at -O2 a memmove of
// one double becomes `load i64` + `store i64`, and GVN reads the moved
// value back as `bitcast i64 %loaded to double` after the source has been
// overwritten. The reverse pass added that read's adjoint to the source's
// shadow where the bitcast was, before the reverse of the overwrite cleared
// it, so the gradient through it was silently 0 (and forward mode read the
// overwritten tangent). Expected: the derivative of a read of the bytes as
// they were at the load. Reverse and forward mode, against the analytic
// derivative and central differences, at -O0 and -O2.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

// x[1] = old x[0]; x[0] = 0.5; a * atan(x[1])
__attribute__((noinline)) double shiftThenOverwrite(double *x, double a) {
  memmove(x + 1, x, sizeof(double));
  x[0] = 0.5;
  return a * atan(x[1]);
}

// A double copied out through memcpy, its source overwritten after.
__attribute__((noinline)) double copyThenOverwrite(double *x) {
  double v;
  memcpy(&v, x, sizeof v);
  x[0] = -1;
  return v * v * x[0];
}

static double f1(double x0) {
  double x[2] = {x0, 0.3};
  return shiftThenOverwrite(x, 1.3);
}
static double f2(double x0) {
  double x[2] = {x0, 0.3};
  return copyThenOverwrite(x);
}

int main(void) {
  double x0 = 0.7, h = 1e-6;
  double x[2] = {x0, 0.3}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)shiftThenOverwrite, enzyme_dup, x, dx, 1.3);
  check_grad("d/dx0 through memmove", dx[0], 1.3 / (1 + x0 * x0),
             (f1(x0 + h) - f1(x0 - h)) / (2 * h));
  check_close("d/dx1 (overwritten)", dx[1], 0, 0, 0);
  double y[2] = {x0, 0.3}, ty[2] = {1, 0};
  double t = __enzyme_fwddiff((void *)shiftThenOverwrite, enzyme_dup, y, ty,
                              enzyme_const, 1.3);
  check_close("tangent through memmove", t, 1.3 / (1 + x0 * x0), 1e-12, 1e-13);

  double z[2] = {x0, 0.3}, dz[2] = {0, 0};
  __enzyme_autodiff((void *)copyThenOverwrite, enzyme_dup, z, dz);
  check_grad("d/dx0 through memcpy", dz[0], -2 * x0,
             (f2(x0 + h) - f2(x0 - h)) / (2 * h));
  double w[2] = {x0, 0.3}, tw[2] = {1, 0};
  check_close("tangent through memcpy",
              __enzyme_fwddiff((void *)copyThenOverwrite, enzyme_dup, w, tw),
              -2 * x0, 1e-12, 1e-13);
  return check_done();
}
