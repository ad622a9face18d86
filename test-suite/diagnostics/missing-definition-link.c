// A call from the differentiated function to a function with no definition
// in this translation unit and no derivative rule. The definition may come
// from another -fenzyme object, so `-c` succeeds and the request waits for
// the link; an -fenzyme link without any definition with bitcode is an error
// that lld prints, at the `__enzyme_autodiff` call, naming the callee and
// the remedies.
// NOTE: the "(the operation is at ...)" part reads an instruction that has
// already been freed (see offending-instruction-freed*.c): until that is
// fixed this test passes only as long as the heap happens not to crash.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_enzyme -fenzyme -O0 -g -c %s -o %t/O0g.o 2>&1 | FileCheck %s --check-prefix=COMPILE --allow-empty %{no-crash}
// RUN: %clang_enzyme -fenzyme -O0 -c %s -o %t/O0.o 2>&1 | FileCheck %s --check-prefix=COMPILE --allow-empty %{no-crash}
// RUN: %clang_enzyme -fenzyme -O2 -g -c %s -o %t/O2g.o 2>&1 | FileCheck %s --check-prefix=COMPILE --allow-empty %{no-crash}
// RUN: %clang_enzyme -fenzyme -O2 -c %s -o %t/O2.o 2>&1 | FileCheck %s --check-prefix=COMPILE --allow-empty %{no-crash}
// COMPILE-NOT: error
//
// With -g the error is at the call, and the offending call inside the
// differentiated function is located too.
// RUN: not %clang_enzyme -fenzyme -O0 -g %t/O0g.o -o %t/O0g.exe -lm 2>&1 | FileCheck %s --check-prefixes=CHECK,DEBUG %{no-crash}
// RUN: not %clang_enzyme -fenzyme -O2 -g %t/O2g.o -o %t/O2g.exe -lm 2>&1 | FileCheck %s --check-prefixes=CHECK,DEBUG %{no-crash}
// Without -g the compile-time run kept the call's location for the link (the
// offending call is not located). See missing-definition-link-no-g.c for the
// "<unknown>:0:0:" lld prints in front of it.
// RUN: not %clang_enzyme -fenzyme -O0 %t/O0.o -o %t/O0.exe -lm 2>&1 | FileCheck %s --check-prefixes=CHECK,NODEBUG %{no-crash}
// RUN: not %clang_enzyme -fenzyme -O2 %t/O2.o -o %t/O2.exe -lm 2>&1 | FileCheck %s --check-prefixes=CHECK,NODEBUG %{no-crash}
// Compiling and linking in one command is the same.
// RUN: not %clang_enzyme -fenzyme -O2 -g %s -o %t/one.exe -lm 2>&1 | FileCheck %s --check-prefixes=CHECK,DEBUG %{no-crash}
//
// No executable is left behind.
// RUN: test ! -e %t/O0g.exe && test ! -e %t/O2.exe && test ! -e %t/one.exe

#include <stdio.h>

double __enzyme_autodiff(void *, ...);

double potential(double); // no definition anywhere

double energy(double x) {
  return 2 * potential(x) * x; // the offending call (line 40, column 14)
}

double denergy(double x) {
  // CHECK: ld.lld: error: {{.*}}missing-definition-link.c:[[@LINE+3]]:10: {{(in function .*: )?}}cannot differentiate 'energy':
  // CHECK-SAME: cannot differentiate a call to 'potential': it has no definition in this module and no derivative rule; compile the file that defines it with -fenzyme and link with -fenzyme, or give it a custom derivative (__enzyme_register_gradient_NAME), or mark it inactive (__enzyme_inactivefn)
  // DEBUG-SAME: (the operation is at {{.*}}missing-definition-link.c:40:14)
  return __enzyme_autodiff((void *)energy, x);
}
// NODEBUG-NOT: the operation is at
// CHECK: linker command failed

int main(void) {
  printf("%g\n", denergy(1.5));
  return 0;
}
