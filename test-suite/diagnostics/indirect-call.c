// A call through a pointer inside the differentiated function dispatches
// on the pointer to the derivative of each possible target: a function of
// its type whose address is taken. Possible targets may live in other
// files, so the request waits for the -fenzyme link; when the linked
// program has none, the error names the request and the call.
//
// RUN: not %clang_enzyme -fenzyme -O0 -g %s -o %t 2>&1 | FileCheck %s --check-prefixes=CHECK,G %{no-crash}
// RUN: not %clang_enzyme -fenzyme -O2 %s -o %t 2>&1 | FileCheck %s %{no-crash}

double __enzyme_autodiff(void *, ...);

double (*model)(double, int);

double apply(double x) {
  return model(x, 1) + x; // the indirect call (line 15, column 10)
}

int main(void) {
  // CHECK: ld.lld: error: {{.*}}indirect-call.c:[[@LINE+2]]:10: {{(in function [^:]*: )?}}cannot differentiate 'apply': cannot differentiate an indirect call whose arguments or result carry derivatives: no function of its type whose address is taken has a body or a custom gradient in the program; the functions it calls must be compiled with -fenzyme
  // G-SAME: (the operation is at {{.*}}indirect-call.c:15:10)
  return __enzyme_autodiff((void *)apply, 1.0) > 0;
}
