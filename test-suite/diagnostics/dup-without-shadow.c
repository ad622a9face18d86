// enzyme_dup is followed by the pointer and then its shadow; a request that
// stops after the pointer is an error at the call, naming the parameter.
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O0 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// Without -g the driver still compiles with line tables for the engine's
// errors (and strips them afterwards), so the location is the same.

extern int enzyme_dup;
double __enzyme_autodiff(void *, ...);

double sum(int n, double *x) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return s;
}

double missing_last(double *x) {
  // CHECK: {{.*}}dup-without-shadow.c:[[@LINE+1]]:10: error: __enzyme_autodiff: enzyme_dup for parameter 2 of 'sum' (pointer) needs a shadow pointer after the value
  return __enzyme_autodiff((void *)sum, 4, enzyme_dup, x);
}
