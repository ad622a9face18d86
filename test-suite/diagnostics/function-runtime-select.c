// The function to differentiate must be a compile-time constant: one chosen
// by a run-time condition is an error at the call that says so, whether
// the choice is an expression or a local variable assigned twice.
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O0 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O0 -g -DLOCAL -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=LOCAL %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -DLOCAL -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=LOCAL %{no-crash} --implicit-check-not=error:
// Without -g the driver still compiles with line tables for the engine's
// errors (and strips them afterwards), so the location is the same.

double __enzyme_autodiff(void *, ...);

double square(double x) { return x * x; }
double cube(double x) { return x * x * x; }

#ifndef LOCAL
double pick(double x, int which) {
  // CHECK: {{.*}}function-runtime-select.c:[[@LINE+1]]:10: error: __enzyme_autodiff: the function to differentiate must be known at compile time; pass the function itself (e.g. (void*)f), not a pointer computed at run time
  return __enzyme_autodiff(which ? (void *)square : (void *)cube, x);
}
#else
double pick(double x, int which) {
  double (*f)(double) = square;
  if (which)
    f = cube;
  // LOCAL: {{.*}}function-runtime-select.c:[[@LINE+1]]:10: error: __enzyme_autodiff: the function to differentiate must be known at compile time; pass the function itself (e.g. (void*)f), not a pointer computed at run time
  return __enzyme_autodiff((void *)f, x);
}
#endif
