// A request with more values than the function has parameters is an error
// at the call.
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O0 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// Without -g the driver still compiles with line tables for the engine's
// errors (and strips them afterwards), so the location is the same.

extern int enzyme_const;
typedef struct { double dx, dy; } grad2;
grad2 __enzyme_autodiff(void *, ...);

double product(double x, double y) { return x * y; }

grad2 bad(double x, double y) {
  // CHECK: {{.*}}too-many-arguments.c:[[@LINE+1]]:10: error: __enzyme_autodiff: too many arguments: 'product' has 2 parameters
  return __enzyme_autodiff((void *)product, x, y, enzyme_const, 3.0);
}
