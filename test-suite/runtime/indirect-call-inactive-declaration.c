// A function marked inactive and declared only (its body is in a library
// without bitcode), called through a function pointer: a possible target
// of the indirect call that carries no derivative. Before, the engine
// tried to differentiate the declaration ("cannot differentiate an
// indirect call: its possible target 'jitter' cannot be differentiated").
// RUN: %clangxx_host -x c -O2 -c %S/Inputs/jitter.c -o %t-jitter.o
// RUN: %clang_enzyme -fenzyme -O0 %s %t-jitter.o -o %t -lm
// RUN: %t
// RUN: %clang_enzyme -fenzyme -O2 %s %t-jitter.o -o %t2 -lm
// RUN: %t2
#include "Inputs/check.h"

__attribute__((enzyme_inactive)) double jitter(const double *x);
double scaled(const double *x) { return 2 * x[1]; }

typedef double (*perturbation)(const double *);
perturbation volatile choices[2] = {jitter, scaled};

extern int enzyme_dup;
double __enzyme_autodiff(void *, ...);

double f(double *x, int which) {
  double p = choices[which](x);
  return x[0] * x[0] * x[1] + p;
}

int main(void) {
  double x[2] = {1.5, -0.5}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, 0);
  check_close("df/dx0 (inactive target)", dx[0], 2 * 1.5 * -0.5, RTOL_EXACT,
              ATOL_EXACT);
  check_close("df/dx1 (inactive target)", dx[1], 1.5 * 1.5, RTOL_EXACT,
              ATOL_EXACT);
  dx[0] = dx[1] = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, 1);
  check_close("df/dx1 (differentiated target)", dx[1], 1.5 * 1.5 + 2,
              RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
