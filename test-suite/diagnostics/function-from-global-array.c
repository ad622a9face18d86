// A function pointer loaded from a (mutable) global table is a run-time
// value: an error at the call.
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O0 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// Without -g the driver still compiles with line tables for the engine's
// errors (and strips them afterwards), so the location is the same.

double __enzyme_autodiff(void *, ...);

double square(double x) { return x * x; }
double cube(double x) { return x * x * x; }

void *table[2] = {(void *)square, (void *)cube};

double pick(double x, int which) {
  // CHECK: {{.*}}function-from-global-array.c:[[@LINE+1]]:10: error: __enzyme_autodiff: the function to differentiate must be known at compile time; pass the function itself (e.g. (void*)f), not a pointer computed at run time
  return __enzyme_autodiff(table[which], x);
}
