// Regression test: "too many arguments: 'square' has 1 parameters". Expected
// "1 parameter" -- and, better, how many values the call passed.
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash}
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash}

double __enzyme_autodiff(void *, ...);

double square(double x) { return x * x; }

double bad(double x) {
  // CHECK: {{.*}}too-many-arguments-one-parameter.c:[[@LINE+1]]:10: error: __enzyme_autodiff: too many arguments: 'square' has 1 parameter{{$|[^s]}}
  return __enzyme_autodiff((void *)square, x, x);
}
