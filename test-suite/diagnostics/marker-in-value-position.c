// Regression test: two markers in a row (`enzyme_out, enzyme_out, x`) give
// "argument for parameter 1 of 'square' (double) has type 'i32'": the second
// marker is taken as the value and described by its IR type. Expected: the
// error names the marker found where the value of parameter 1 was expected.
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash}
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash}

extern int enzyme_out;
double __enzyme_autodiff(void *, ...);

double square(double x) { return x * x; }

double bad(double x) {
  // CHECK: {{.*}}marker-in-value-position.c:[[@LINE+1]]:10: error: __enzyme_autodiff: {{.*}}enzyme_out{{.*}}parameter 1 of 'square'
  return __enzyme_autodiff((void *)square, enzyme_out, enzyme_out, x);
}
