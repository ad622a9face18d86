// A double copied with memcpy becomes an i64 load/store at -O1 and up, and
// the copy is read back through a bitcast of the loaded integer. The
// derivative must still reach the source: f = out^2 with out = in, so
// d/din = 2 in, and the shadow of out (overwritten) is consumed.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O1 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"
#include <string.h>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);

__attribute__((noinline)) double f(double *in, double *out) {
  memcpy(out, in, sizeof(double));
  return *out * *out;
}

int main(void) {
  double in = 3.0, din = 0.0, out = 0.0, dout = 0.0;
  __enzyme_autodiff((void *)f, enzyme_dup, &in, &din, enzyme_dup, &out, &dout);
  check_close("d/din", din, 2 * in, RTOL_EXACT, ATOL_EXACT);
  check_close("dout consumed", dout, 0.0, RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
