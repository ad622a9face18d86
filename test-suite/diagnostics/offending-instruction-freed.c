// Regression test: the link-time error for a callee without a definition makes
// ld.lld crash with a stack dump in enzyme::describeLocation, called from
// reportError(..., Failure.Offending) in lowerReverseRequest. The offending
// instruction belongs to the prepared copy of the function that
// ReverseModeGenerator::generate() has already erased (discard(Prepared))
// when the error is reported: a use after free. Whether it crashes depends on
// the heap: this input (the callee's name, even) crashes at -O0 and -O2 with
// and without -g; missing-definition-link.c, which differs only in names,
// happens not to. Every "(the operation is at ...)" note reads freed memory
// (offending-instruction-freed-valgrind.c shows it for a compile-time error).
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_enzyme -fenzyme -O0 -g -c %s -o %t/O0g.o
// RUN: %clang_enzyme -fenzyme -O2 -c %s -o %t/O2.o
// RUN: not %clang_enzyme -fenzyme -O0 -g %t/O0g.o -o %t/O0g.exe 2>&1 | FileCheck %s %{no-crash}
// RUN: not %clang_enzyme -fenzyme -O2 %t/O2.o -o %t/O2.exe 2>&1 | FileCheck %s %{no-crash}

#include <stdio.h>

double __enzyme_autodiff(void *, ...);

double external_potential(double); // no definition anywhere

double energy(double x) { return 2 * external_potential(x) * x; }

double denergy(double x) {
  // CHECK: ld.lld: error: {{.*}}offending-instruction-freed.c:[[@LINE+1]]:10: {{.*}}cannot differentiate a call to 'external_potential'
  return __enzyme_autodiff((void *)energy, x);
}

int main(void) {
  printf("%g\n", denergy(1.5));
  return 0;
}
