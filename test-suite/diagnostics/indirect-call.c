// An indirect call inside the differentiated function whose arguments carry
// derivatives is an error at the request, with the call's location.
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

double (*model)(double);

double apply(double x) {
  return model(x) + x; // the indirect call (line 19, column 10)
}

double bad(double x) {
  // CHECK: {{.*}}indirect-call.c:[[@LINE+2]]:10: error: cannot differentiate 'apply': cannot differentiate an indirect call whose arguments or result carry derivatives
  // CHECK-SAME: (the operation is at {{.*}}indirect-call.c:19:10)
  return __enzyme_autodiff((void *)apply, x);
}
