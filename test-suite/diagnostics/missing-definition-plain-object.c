// The differentiated function calls a function defined in an object compiled
// WITHOUT -fenzyme: the linker has its native code but no bitcode, so there
// is nothing to differentiate. Linking with -fenzyme is an error that lld
// prints at the `__enzyme_autodiff` call, naming the callee and the remedies
// (build that file with -fenzyme among them). The same callee built with
// -fenzyme links and runs.
// NOTE: the "(the operation is at ...)" part reads an instruction that has
// already been freed (see offending-instruction-freed*.c): until that is
// fixed this test passes only as long as the heap happens not to crash.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_enzyme -O2 -c %S/Inputs/plain-object-callee.c -o %t/plain.o
// RUN: %clang_enzyme -fenzyme -O2 -c %S/Inputs/plain-object-callee.c -o %t/fenzyme.o
// RUN: %clang_enzyme -fenzyme -O0 -g -c %s -o %t/O0g.o
// RUN: %clang_enzyme -fenzyme -O2 -c %s -o %t/O2.o
// RUN: not %clang_enzyme -fenzyme -O0 -g %t/O0g.o %t/plain.o -o %t/O0g.exe 2>&1 | FileCheck %s --check-prefixes=CHECK,DEBUG %{no-crash}
// Without -g: the same error, without the offending call's location.
// RUN: not %clang_enzyme -fenzyme -O2 %t/O2.o %t/plain.o -o %t/O2.exe 2>&1 | FileCheck %s --check-prefixes=CHECK,NODEBUG %{no-crash}
//
// RUN: %clang_enzyme -fenzyme -O2 %t/O2.o %t/fenzyme.o -o %t/good.exe
// RUN: %t/good.exe | FileCheck %s --check-prefix=OUT

#include <stdio.h>

double __enzyme_autodiff(void *, ...);

double stiffness(double x); // in Inputs/plain-object-callee.c

double energy(double x) {
  return stiffness(x) * x; // the call (line 30, column 10)
}

double denergy(double x) {
  // CHECK: ld.lld: error: {{.*}}missing-definition-plain-object.c:[[@LINE+4]]:10: {{(in function .*: )?}}cannot differentiate 'energy':
  // CHECK-SAME: cannot differentiate a call to 'stiffness': it has no definition in this module and no derivative rule; compile the file that defines it with -fenzyme and link with -fenzyme, or give it a custom derivative (__enzyme_register_gradient_NAME), or mark it inactive (__enzyme_inactivefn)
  // DEBUG-SAME: (the operation is at {{.*}}missing-definition-plain-object.c:30:10)
  // NODEBUG-NOT: the operation is at
  return __enzyme_autodiff((void *)energy, x);
}
// CHECK: linker command failed

// d/dx (3 x^3) = 9 x^2 = 20.25 at x = 1.5
// OUT: 20.25
int main(void) {
  printf("%.2f\n", denergy(1.5));
  return 0;
}
