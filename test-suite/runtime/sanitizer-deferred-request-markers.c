// Under AddressSanitizer, the loads of the activity markers of a request
// that waits for the link (here: a call through a pointer) are instrumented
// at compile time, and the check outlives the request. The program must
// still link when the markers are only declared (it failed with "undefined
// symbol: enzyme_const"), and run clean.
// RUN: %clang_enzyme -fenzyme -O0 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t -lm && %t
#include "Inputs/check.h"

void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

typedef double (*unary)(double);
double cube(double t) { return t * t * t; }
double twice(double t) { return 2 * t; }

__attribute__((noinline)) void apply(unary f, const double *x, double *y) {
  *y = f(*x);
}

int main(void) {
  unary fs[2] = {cube, twice};
  double want[2] = {3 * 1.5 * 1.5, 2};
  for (int k = 0; k < 2; ++k) {
    double x = 1.5, dx = 0, y = 0, dy = 1;
    __enzyme_autodiff((void *)apply, enzyme_const, fs[k], enzyme_dup, &x, &dx,
                      enzyme_dup, &y, &dy);
    check_close("d/dx", dx, want[k], RTOL_EXACT, ATOL_EXACT);
  }
  return check_done();
}
