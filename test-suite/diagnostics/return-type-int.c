// Regression test: __enzyme_autodiff declared to return `int` (or
// a pointer) while the function has an active scalar: the gradient is
// silently replaced by 0 (convertGradients returns a null constant for any
// declared type it does not handle). The program compiles and prints 0
// instead of an error at the call. Expected: an error at the call saying the
// declared return type cannot hold the gradient, as for a `double` declared
// with two active scalars (struct-return-too-few-fields.c).
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash}
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash}

extern int enzyme_const;
int __enzyme_autodiff(void *, ...);

double product(double x, double y) { return x * y; }

int bad(double y) {
  // CHECK: {{.*}}return-type-int.c:[[@LINE+1]]:10: error: {{.*}}__enzyme_autodiff{{.*}}'product'
  return __enzyme_autodiff((void *)product, enzyme_const, 2.0, y);
}
