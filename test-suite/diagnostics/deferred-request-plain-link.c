// A request deferred to link time (its callee is in another file) needs an
// -fenzyme link. A plain link must not produce a program that silently lacks
// the derivative: the call to __enzyme_autodiff stays undefined, and the
// link fails naming it. With -fenzyme, the same objects link and run.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_enzyme -fenzyme -O2 -c %s -o %t/main.o
// RUN: %clang_enzyme -fenzyme -O2 -c %S/Inputs/plain-object-callee.c -o %t/callee.o
// RUN: not %clang_enzyme -O2 %t/main.o %t/callee.o -o %t/plain.exe 2>&1 | FileCheck %s %{no-crash}
// CHECK: undefined {{reference to|symbol:}} {{.*}}__enzyme_autodiff
// RUN: test ! -e %t/plain.exe
// RUN: %clang_enzyme -fenzyme -O2 %t/main.o %t/callee.o -o %t/good.exe
// RUN: %t/good.exe | FileCheck %s --check-prefix=OUT
// OUT: 20.25

#include <stdio.h>

double __enzyme_autodiff(void *, ...);

double stiffness(double x); // in Inputs/plain-object-callee.c

double energy(double x) { return stiffness(x) * x; }

int main(void) {
  printf("%.2f\n", __enzyme_autodiff((void *)energy, 1.5));
  return 0;
}
