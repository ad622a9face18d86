// A global marked inactive (__enzyme_inactive_global, or the
// enzyme_inactive attribute on the variable) may receive values that carry
// derivatives (a log of the last value): their derivatives stop there.
// Without the mark this is an error, because the global has no shadow.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

double last_value;
void *__enzyme_inactive_global[1] = {(void *)&last_value};
__attribute__((enzyme_inactive)) double peak;

double f(double x) {
  double y = sin(x) * x;
  last_value = y;
  if (y > peak)
    peak = y;
  return y * y;
}

int main(void) {
  double x = 0.9, y = sin(x) * x;
  check_close("d/dx", __enzyme_autodiff((void *)f, x),
              2 * y * (cos(x) * x + sin(x)), RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
