// Regression test: at -O0, a static helper holding two requests whose functions
// come from two of its parameters crashes cc1 (segfault in
// llvm::Function::eraseFromParent from enzyme::specializeFunctionArguments).
// specializeOnce() collects both parameters of `helper`, clones `helper` for
// the first and erases it once nothing calls it (it is internal), then reads
// the second parameter's parent: the erased function. -O2 inlines the helper
// first and is fine. Expected: the program compiles at every level and the
// derivatives are right.
//
// RUN: %clang_enzyme -fenzyme -O0 -fno-crash-diagnostics %s -o %t.O0 2>&1 | FileCheck %s --allow-empty %{no-crash} --implicit-check-not=error:
// RUN: %t.O0 | FileCheck %s --check-prefix=OUT
// RUN: %clang_enzyme -fenzyme -O2 -fno-crash-diagnostics %s -o %t.O2 2>&1 | FileCheck %s --allow-empty %{no-crash} --implicit-check-not=error:
// RUN: %t.O2 | FileCheck %s --check-prefix=OUT

#include <stdio.h>

double __enzyme_autodiff(void *, ...);

double square(double x) { return x * x; }
double cube(double x) { return x * x * x; }

static double both(void *f, void *g, double x) {
  return __enzyme_autodiff(f, x) + __enzyme_autodiff(g, x);
}

// 2x + 3x^2 at x = 2
// OUT: 16.0
int main(void) {
  printf("%.1f\n", both((void *)square, (void *)cube, 2.0));
  return 0;
}
