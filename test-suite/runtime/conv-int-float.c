// Conversions to integers and back carry no derivative: (double)(int)x acts
// as a constant.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

double f(double x) {
  int k = (int)x;
  long tenths = (long)(x * 10.0);
  unsigned u = (unsigned)(x * x);
  return (double)k * x + (double)tenths + (double)u * 0.5;
}

int main(void) {
  const double xs[3] = {2.73, 0.41, 5.17};
  for (int i = 0; i < 3; i++) {
    double x = xs[i];
    check_grad("d/dx", __enzyme_autodiff((void *)f, x), (double)(int)x, fd_diff1(f, x));
  }
  return check_done();
}
