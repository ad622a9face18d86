// A pointer that chooses between memory with derivatives and memory without
// (an enzyme_const argument), written through. The side without a shadow
// gets a null shadow and a run-time check: the gradient is right when the
// program takes the side with derivatives, and the program stops with a
// message naming the function and the choice when it takes the other
// (derivatives stored there would be lost). This used to be a compile-time
// error; Eigen's GEMM makes such a choice (its caller's workspace, null at
// run time, or a buffer of its own) in every dynamic matrix product at -O0.
// Reverse and forward mode, -O0 and -O2.
// RUN: %clang_enzyme -fenzyme -O0 -g %s -o %t -lm
// RUN: %t dup
// RUN: not --crash %t const reverse 2>&1 | FileCheck %s
// RUN: not --crash %t const forward 2>&1 | FileCheck %s
// RUN: %clang_enzyme -fenzyme -O2 -g %s -o %t2 -lm
// RUN: %t2 dup
// RUN: not --crash %t2 const reverse 2>&1 | FileCheck %s
// RUN: not --crash %t2 const forward 2>&1 | FileCheck %s
// CHECK: enzyme: the derivative of 'scale_into' chose a pointer to memory without derivatives ({{.*}}) at {{.*}}choice-const-memory-written-guard.c:[[#@LINE+8]]:{{[0-9]+}}, where derivatives go through the pointer; pass that memory with enzyme_dup and a zeroed shadow
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) void scale_into(double *c, double *x, int k) {
  double *out = k ? x + 1 : c;
  out[0] = x[0] * x[0];
}

int main(int argc, char **argv) {
  int k = argc > 1 && strcmp(argv[1], "dup") == 0;
  int forward = argc > 2 && strcmp(argv[2], "forward") == 0;
  double c[1] = {0}, x[2] = {1.5, 0}, dx[2] = {0, 1};
  if (forward) {
    double t[2] = {1, 0};
    __enzyme_fwddiff((void *)scale_into, enzyme_const, c, enzyme_dup, x, t,
                     k);
    check_close("tangent of x[1]", t[1], 2 * 1.5, RTOL_EXACT, ATOL_EXACT);
    return check_done();
  }
  __enzyme_autodiff((void *)scale_into, enzyme_const, c, enzyme_dup, x, dx, k);
  // x[1] = x[0]^2 with x[1]'s adjoint seeded with 1.
  check_close("d/dx0", dx[0], 2 * 1.5, RTOL_EXACT, ATOL_EXACT);
  check_close("d/dx1", dx[1], 0, RTOL_EXACT, ATOL_EXACT);
  if (k) {
    double t[2] = {1, 0};
    x[1] = 0;
    __enzyme_fwddiff((void *)scale_into, enzyme_const, c, enzyme_dup, x, t,
                     k);
    check_close("tangent of x[1]", t[1], 2 * 1.5, RTOL_EXACT, ATOL_EXACT);
  }
  return check_done();
}
