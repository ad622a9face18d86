// An unmarked vector-of-double parameter is active by default, like a
// double, and its gradient comes back as a vector (extractelement and
// insertelement carry adjoints). f = x0^2 + 3 x1 x0: grad = (2 x0 + 3 x1, 3 x0).
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

typedef double v2 __attribute__((vector_size(16)));
v2 __enzyme_autodiff(void *, ...);

__attribute__((noinline)) double f(v2 x) {
  v2 y = x;
  y[1] = 3.0 * x[1] * x[0];
  return y[0] * y[0] + y[1];
}

int main(void) {
  v2 x = {2.0, 5.0};
  v2 g = __enzyme_autodiff((void *)f, x);
  check_close("d/dx0", g[0], 2 * x[0] + 3 * x[1], RTOL_EXACT, ATOL_EXACT);
  check_close("d/dx1", g[1], 3 * x[0], RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
