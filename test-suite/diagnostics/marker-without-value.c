// An activity marker as the last argument, with no value after it, is an
// error at the call.
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O0 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// Without -g the driver still compiles with line tables for the engine's
// errors (and strips them afterwards), so the location is the same.

extern int enzyme_const;
double __enzyme_autodiff(void *, ...);

double square(double x) { return x * x; }

double bad(void) {
  // CHECK: {{.*}}marker-without-value.c:[[@LINE+1]]:10: error: __enzyme_autodiff: enzyme_const must be followed by the value for parameter 1 of 'square' (double)
  return __enzyme_autodiff((void *)square, enzyme_const);
}
