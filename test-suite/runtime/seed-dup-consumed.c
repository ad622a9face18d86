// Reverse mode through memory: the seed placed in the shadow of the output
// flows into the shadow of the input, and the output's shadow is consumed
// (zeroed) because *y was overwritten.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t && %t | FileCheck %s
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t && %t | FileCheck %s
#include <stdio.h>

void __enzyme_autodiff(void *, ...);
extern int enzyme_dup;

void f(double *x, double *y) { *y = *x * *x; }

int main(void) {
  double x = 1.4, dx = 0.0, y = 123.0, dy = 1.0;
  __enzyme_autodiff((void *)f, enzyme_dup, &x, &dx, enzyme_dup, &y, &dy);
  printf("%f %f\n", dx, dy);
  return 0;
}

// dx = 2 * 1.4 * dy, then dy = 0.
// CHECK: 2.800000 0.000000
