// Regression test: at -O2 an erroneous request inside a function that is also
// inlined elsewhere is reported once per copy, at the same location:
// the same "must be known at compile time" error twice here (three times with
// two callers). Expected: one error per source location.
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:

double __enzyme_autodiff(void *, ...);

double helper(void *f, double x) {
  // CHECK: {{.*}}inlined-request-reported-once.c:[[@LINE+1]]:10: error: __enzyme_autodiff: the function to differentiate must be known at compile time
  return __enzyme_autodiff(f, x);
}

double caller(double x) { return helper((void *)0, x); }
