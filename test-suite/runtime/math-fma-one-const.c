// fma with one argument enzyme_const (the addend, then a factor).
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

typedef struct { double da, db; } grad2;
grad2 __enzyme_autodiff(void *, ...);
extern int enzyme_out, enzyme_const;

double f(double x, double y, double z) { return fma(x, y, z); }

int main(void) {
  double x = 0.6, y = -2.5, z = 1.75;
  grad2 g = __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_out, y, enzyme_const, z);
  check_close("d/dx fma(x, y, const)", g.da, y, RTOL_EXACT, ATOL_EXACT);
  check_close("d/dy fma(x, y, const)", g.db, x, RTOL_EXACT, ATOL_EXACT);
  g = __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_const, y, enzyme_out, z);
  check_close("d/dx fma(x, const, z)", g.da, y, RTOL_EXACT, ATOL_EXACT);
  check_close("d/dz fma(x, const, z)", g.db, 1.0, RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
