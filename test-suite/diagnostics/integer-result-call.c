// Regression test: a call whose result is an integer (here lround) has no derivative to
// propagate, whatever its floating-point arguments, yet the engine tries to
// differentiate it: the -fenzyme link fails with "cannot differentiate a
// call to 'lround': it has no definition in this module and no derivative
// rule; compile the file that defines it with -fenzyme ...", advice that does
// not apply to libm. Expected: the call is inactive; the program links and
// d/dx (x * lround(x)) = lround(x) = 2 at x = 1.75.
//
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t.O0 -lm 2>&1 | FileCheck %s --allow-empty %{no-crash} --implicit-check-not=error:
// RUN: %t.O0 | FileCheck %s --check-prefix=OUT
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t.O2 -lm 2>&1 | FileCheck %s --allow-empty %{no-crash} --implicit-check-not=error:
// RUN: %t.O2 | FileCheck %s --check-prefix=OUT

#include <math.h>
#include <stdio.h>

double __enzyme_autodiff(void *, ...);

double stepped(double x) { return x * (double)lround(x); }

// OUT: 2.0
int main(void) {
  printf("%.1f\n", __enzyme_autodiff((void *)stepped, 1.75));
  return 0;
}
