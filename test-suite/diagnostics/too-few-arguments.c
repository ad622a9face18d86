// A request with fewer values than the function has parameters is an error
// at the call naming the first parameter without a value.
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O0 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// Without -g the driver still compiles with line tables for the engine's
// errors (and strips them afterwards), so the location is the same.

double __enzyme_autodiff(void *, ...);

double product(double x, double y) { return x * y; }

double bad(double x) {
  // CHECK: {{.*}}too-few-arguments.c:[[@LINE+1]]:10: error: __enzyme_autodiff: too few arguments: no value for parameter 2 of 'product' (double)
  return __enzyme_autodiff((void *)product, x);
}
