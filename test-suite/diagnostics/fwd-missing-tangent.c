// A duplicated scalar in forward mode needs its tangent after the value;
// without it the request is an error at the call naming the parameter.
//
// RUN: not %clang_enzyme -fenzyme -O0 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:

extern int enzyme_dup, enzyme_const;
double __enzyme_fwddiff(void *, ...);

double f(double x, double y) { return x * y; }

double tangent(double x, double y) {
  // CHECK: {{.*}}fwd-missing-tangent.c:[[@LINE+1]]:10: error: __enzyme_fwddiff: enzyme_dup for parameter 1 of 'f' (double) needs a tangent after the value
  return __enzyme_fwddiff((void *)f, enzyme_dup, x, enzyme_const, y);
}
