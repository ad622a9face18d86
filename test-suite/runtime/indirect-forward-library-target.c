// A call through a pointer whose possible target is a library function
// without bitcode but with a custom forward derivative: the dispatcher
// calls the registered derivative (it trapped before: a declaration was a
// possible target only with a custom gradient).
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_enzyme -O2 -c %S/Inputs/library-cube.c -o %t/lib.o
// RUN: %clang_enzyme -fenzyme -O0 %s %t/lib.o -o %t/O0 -lm && %t/O0
// RUN: %clang_enzyme -fenzyme -O2 %s %t/lib.o -o %t/O2 -lm && %t/O2
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const;
double __enzyme_fwddiff(void *, ...);

typedef double (*unary)(double);
double lib_cube(double t); // in Inputs/library-cube.c, without bitcode
double fwd_lib_cube(double t, double dt) { return 3 * t * t * dt; }
void *__enzyme_register_derivative_lib_cube[2] = {(void *)lib_cube,
                                                  (void *)fwd_lib_cube};

__attribute__((noinline)) double apply(unary f, double x) { return f(x) * x; }

int main(void) {
  double x = 0.7;
  // d/dx [x^3 x] = 4 x^3.
  check_close("through the pointer",
              __enzyme_fwddiff((void *)apply, enzyme_const, (unary)lib_cube,
                               enzyme_dup, x, 1.0),
              4 * x * x * x, RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
