// A first argument that is not a function at all (a null pointer, the
// address of a variable, an activity marker) is an error at the call.
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O0 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O0 -g -DVARIABLE -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=VARIABLE %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -DVARIABLE -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=VARIABLE %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O0 -g -DMARKER -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=MARKER %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -DMARKER -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=MARKER %{no-crash} --implicit-check-not=error:
// Without -g the driver still compiles with line tables for the engine's
// errors (and strips them afterwards), so the location is the same.

extern int enzyme_dup;
double __enzyme_autodiff(void *, ...);

double scale;

double bad(double x) {
#if defined(VARIABLE)
  // VARIABLE: {{.*}}function-not-a-function.c:[[@LINE+1]]:10: error: __enzyme_autodiff: the function to differentiate must be known at compile time
  return __enzyme_autodiff((void *)&scale, x);
#elif defined(MARKER)
  // MARKER: {{.*}}function-not-a-function.c:[[@LINE+1]]:10: error: __enzyme_autodiff: the function to differentiate must be known at compile time
  return __enzyme_autodiff((void *)&enzyme_dup, x);
#else
  // CHECK: {{.*}}function-not-a-function.c:[[@LINE+1]]:10: error: __enzyme_autodiff: the function to differentiate must be known at compile time
  return __enzyme_autodiff((void *)0, x);
#endif
}
