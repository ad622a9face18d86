// long double (x86_fp80 on x86-64) arithmetic, active argument and return.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

long double __enzyme_autodiff(void *, ...);

long double f(long double x) { return x * x * x - 2.0L * x / (x + 1.0L); }

int main(void) {
#if defined(__x86_64__)
  const long double xs[2] = {1.25L, -3.5L};
  for (int i = 0; i < 2; i++) {
    long double x = xs[i];
    long double g = __enzyme_autodiff((void *)f, x);
    long double expected = 3 * x * x - 2.0L / ((x + 1) * (x + 1));
    /* Tighter than a double computation of the derivative could guarantee. */
    check_close("d/dx (long double)", (double)g, (double)expected, 1e-15, 0.0);
  }
#endif
  return check_done();
}
