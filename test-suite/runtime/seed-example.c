// Enzyme's README example: the gradient of square, printed with %f.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t && %t | FileCheck %s
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t && %t | FileCheck %s
#include <stdio.h>

double __enzyme_autodiff(void *, double);

double square(double x) { return x * x; }

double dsquare(double x) { return __enzyme_autodiff((void *)square, x); }

int main(void) {
  for (double i = 1; i < 5; i++)
    printf("square(%f)=%f, dsquare(%f)=%f\n", i, square(i), i, dsquare(i));
  return 0;
}

// d/dx x^2 = 2x.
// CHECK:      square(1.000000)=1.000000, dsquare(1.000000)=2.000000
// CHECK-NEXT: square(2.000000)=4.000000, dsquare(2.000000)=4.000000
// CHECK-NEXT: square(3.000000)=9.000000, dsquare(3.000000)=6.000000
// CHECK-NEXT: square(4.000000)=16.000000, dsquare(4.000000)=8.000000
