// Regression test: differentiating a function that is only declared. `-c`
// defers the request (the definition may be in another -fenzyme object), and
// the link reports it, but the message repeats itself:
//   cannot differentiate 'stiffness': cannot differentiate 'stiffness': it has no definition ...
// Expected: the name once, then the reason and the remedies.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_enzyme -fenzyme -O0 -g -c %s -o %t/O0g.o
// RUN: %clang_enzyme -fenzyme -O2 -g -c %s -o %t/O2g.o
// RUN: not %clang_enzyme -fenzyme -O0 -g %t/O0g.o -o %t/O0g.exe 2>&1 | FileCheck %s %{no-crash}
// RUN: not %clang_enzyme -fenzyme -O2 -g %t/O2g.o -o %t/O2g.exe 2>&1 | FileCheck %s %{no-crash}

double __enzyme_autodiff(void *, ...);

double stiffness(double); // defined nowhere

double dstiffness(double x) {
  // CHECK: ld.lld: error: {{.*}}function-without-definition.c:[[@LINE+2]]:10: {{(in function [^:]*: )?}}cannot differentiate 'stiffness': it has no definition
  // CHECK-SAME: compile the file that defines it with -fenzyme
  return __enzyme_autodiff((void *)stiffness, x);
}

int main(void) { return dstiffness(1.0) > 0; }
