// Regression test: several erroneous requests in one file are reported bottom
// up (collectRequests walks the users of __enzyme_autodiff, newest first).
// Clang reports in source order; the engine's errors should too.
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash}
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash}

double __enzyme_autodiff(void *, ...);

double square(double x) { return x * x; }
double product(double x, double y) { return x * y; }

double first(double x) {
  // CHECK: {{.*}}errors-in-source-order.c:[[@LINE+1]]:10: error: __enzyme_autodiff: too many arguments
  return __enzyme_autodiff((void *)square, x, x);
}

double second(double x) {
  // CHECK: {{.*}}errors-in-source-order.c:[[@LINE+1]]:10: error: __enzyme_autodiff: too few arguments
  return __enzyme_autodiff((void *)product, x);
}
