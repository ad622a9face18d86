// Single-precision + - * / and negation; the derivative is computed in float.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

float __enzyme_autodiff(void *, float);

float f(float x) { return -((x + 1.5f) * x - x / (x + 2.0f)); }

int main(void) {
  const float xs[3] = {0.5f, -1.25f, 3.0f};
  for (int i = 0; i < 3; i++) {
    float x = xs[i];
    double xd = x;
    double expected = -(2 * xd + 1.5 - 2 / ((xd + 2) * (xd + 2)));
    check_close("d/dx (float)", __enzyme_autodiff((void *)f, x), expected, 1e-6, 1e-6);
  }
  return check_done();
}
