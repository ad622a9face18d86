// enzyme_out is for floating-point scalars passed by value; on a pointer
// parameter it is an error at the call that says to use enzyme_dup or
// enzyme_const.
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O0 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// Without -g the driver still compiles with line tables for the engine's
// errors (and strips them afterwards), so the location is the same.

extern int enzyme_out;
double __enzyme_autodiff(void *, ...);

double first(double *x) { return x[0] * x[0]; }

double bad(double *x) {
  // CHECK: {{.*}}out-on-pointer.c:[[@LINE+1]]:10: error: __enzyme_autodiff: enzyme_out needs a floating-point parameter, but parameter 1 of 'first' (pointer) is not; pass pointers with enzyme_dup or enzyme_const
  return __enzyme_autodiff((void *)first, enzyme_out, x);
}
