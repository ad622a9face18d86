// Storing a value that carries a derivative into a mutable global (which
// has no shadow) is an error at the call naming the function and the
// global, with the store's location and the remedies.
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

double __enzyme_autodiff(void *, ...);

double last_input;

double remember(double x) {
  last_input = x * 2.0; // the store (line 20, column 14)
  return x * x;
}

double bad(double x) {
  // CHECK: {{.*}}mutable-global-active-store.c:[[@LINE+2]]:10: error: cannot differentiate 'remember': a value that carries a derivative is stored to the global 'last_input', which has no shadow; pass the data through an argument with enzyme_dup, give the global a shadow (enzyme_shadow, or enzyme_context on the request), or mark the global inactive
  // CHECK-SAME: (the operation is at {{.*}}mutable-global-active-store.c:20:14)
  return __enzyme_autodiff((void *)remember, x);
}
