// A call to a variadic function with an argument that carries a derivative,
// inside the differentiated function, is an error at the request with the
// call's location.
// NOTE: the "(the operation is at ...)" part reads an instruction that has
// already been freed (see offending-instruction-freed*.c): until that is
// fixed this test passes only as long as the heap happens not to crash.
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O0 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// Without -g the driver still compiles with line tables for the engine's
// errors (and strips them afterwards), so the location is the same.

#include <stdarg.h>
double __enzyme_autodiff(void *, ...);

__attribute__((noinline)) double sum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += va_arg(ap, double);
  va_end(ap);
  return s;
}

double twice(double x) {
  return sum(2, x, x); // the variadic call (line 29, column 10)
}

double bad(double x) {
  // CHECK: {{.*}}variadic-callee.c:[[@LINE+2]]:10: error: cannot differentiate 'twice': cannot differentiate a call to the variadic function 'sum'
  // CHECK-SAME: (the operation is at {{.*}}variadic-callee.c:29:10)
  return __enzyme_autodiff((void *)twice, x);
}
