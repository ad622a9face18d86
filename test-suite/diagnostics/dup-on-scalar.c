// enzyme_dup needs a pointer parameter; on a double it is an error at the
// call that says to use enzyme_out or enzyme_const.
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O0 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// Without -g the driver still compiles with line tables for the engine's
// errors (and strips them afterwards), so the location is the same.

extern int enzyme_dup;
double __enzyme_autodiff(void *, ...);

double square(double x) { return x * x; }

double bad(double x, double dx) {
  // CHECK: {{.*}}dup-on-scalar.c:[[@LINE+1]]:10: error: __enzyme_autodiff: enzyme_dup needs a pointer parameter, but parameter 1 of 'square' (double) is not; pass scalars with enzyme_out or enzyme_const
  return __enzyme_autodiff((void *)square, enzyme_dup, x, dx);
}
