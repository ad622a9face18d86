// fpext: a float argument widened to double keeps its derivative.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

float __enzyme_autodiff(void *, float);

float f(float x) {
  double d = x;
  return (float)(d * d * d + sin(d));
}

int main(void) {
  const float xs[3] = {0.5f, -1.75f, 2.0f};
  for (int i = 0; i < 3; i++) {
    double x = xs[i];
    check_close("d/dx", __enzyme_autodiff((void *)f, xs[i]), 3 * x * x + cos(x), 1e-6, 1e-6);
  }
  return check_done();
}
