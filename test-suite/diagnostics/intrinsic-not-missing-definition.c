// Regression test: at -O0, `__builtin_isnan(x)` becomes a call to the intrinsic
// llvm.is.fpclass.f64 (an i1 result, no derivative). The engine treats it as
// a function without a definition: `-c` defers the request and the -fenzyme
// link fails with "cannot differentiate a call to 'llvm.is.fpclass.f64': it
// has no definition in this module and no derivative rule; compile the file
// that defines it with -fenzyme ..." -- advice that cannot apply to an LLVM
// intrinsic. -O2 folds the call away and works. Expected: compiles, links and
// runs at -O0 too (an intrinsic with no floating-point result is inactive;
// one that is not is an error that names it as an intrinsic, at compile
// time, since no other file can define it).
//
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t.O0 -lm 2>&1 | FileCheck %s --allow-empty %{no-crash} --implicit-check-not=error:
// RUN: %t.O0 | FileCheck %s --check-prefix=OUT
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t.O2 -lm 2>&1 | FileCheck %s --allow-empty %{no-crash} --implicit-check-not=error:
// RUN: %t.O2 | FileCheck %s --check-prefix=OUT

#include <stdio.h>

double __enzyme_autodiff(void *, ...);

double safe_square(double x) { return __builtin_isnan(x) ? 0.0 : x * x; }

// OUT: 3.0
int main(void) {
  printf("%.1f\n", __enzyme_autodiff((void *)safe_square, 1.5));
  return 0;
}
