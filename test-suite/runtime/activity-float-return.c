// A function returning float: the seed of the return's adjoint is 1.0f and
// the gradient of the active float argument is returned as float.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

float __enzyme_autodiff(void *, float);

float f(float x) { return x * x * x - 2.0f * x; }

int main(void) {
  const float xs[3] = {1.25f, -0.5f, 3.0f};
  for (int i = 0; i < 3; i++) {
    float x = xs[i];
    float g = __enzyme_autodiff((void *)f, x);
    double xd = x;
    check_close("d/dx x^3-2x", g, 3 * xd * xd - 2, 1e-6, 1e-6);
  }
  return check_done();
}
