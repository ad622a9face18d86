// The activity of the result: enzyme_const_return asks for the gradient of
// what the function writes through its duplicated pointers only (the result
// is not seeded; __enzyme_reverse then takes no adjoint of it);
// enzyme_active_return states the default for a float result.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_out, enzyme_const_return, enzyme_active_return;
double __enzyme_autodiff(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);

// Returns x^3 and writes sin(x) to *y.
__attribute__((noinline)) double f(double x, double *y) {
  *y = sin(x);
  return x * x * x;
}

int main(void) {
  double x = 0.6, y = 0, dy = 1.0;
  // Only the output *y is seeded: d/dx = cos(x).
  double g = __enzyme_autodiff((void *)f, enzyme_const_return, enzyme_out, x,
                               enzyme_dup, &y, &dy);
  check_close("const result", g, cos(x), RTOL_EXACT, ATOL_EXACT);

  dy = 1.0;
  g = __enzyme_autodiff((void *)f, enzyme_active_return, enzyme_out, x,
                        enzyme_dup, &y, &dy);
  check_close("active result", g, 3 * x * x + cos(x), RTOL_EXACT, ATOL_EXACT);

  // Split mode with a constant result: no adjoint before the tape.
  dy = 2.0;
  void *tape = __enzyme_augmentfwd((void *)f, enzyme_const_return, enzyme_out,
                                   x, enzyme_dup, &y, &dy);
  g = __enzyme_reverse((void *)f, enzyme_const_return, enzyme_out, x,
                       enzyme_dup, &y, &dy, tape);
  check_close("split, const result", g, 2 * cos(x), RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
