// Two active floats: a struct of two floats comes back (on x86-64 packed in
// one vector register). Float arguments use a prototype, since `...` would
// promote them to double.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

typedef struct { float dx, dy; } gradf2;
gradf2 __enzyme_autodiff(void *, float, float);

float f(float x, float y) { return x * y * y - x / y; }

int main(void) {
  float x = 1.5f, y = 0.75f;
  gradf2 g = __enzyme_autodiff((void *)f, x, y);
  /* Expectations in double from the float inputs; float rounding allowed. */
  double xd = x, yd = y;
  check_close("d/dx", g.dx, yd * yd - 1 / yd, 1e-6, 1e-6);
  check_close("d/dy", g.dy, 2 * xd * yd + xd / (yd * yd), 1e-6, 1e-6);
  return check_done();
}
