// Regression test: -O0 rejects what -O2 accepts. A template helper that receives the
// function and passes it on to the template holding the request
// (outer(f) -> grad(f)) is reported at -O0 as "the function to differentiate
// must be known at compile time" although every call passes a constant;
// specializeFunctionArguments only clones the function that holds the
// request, not the callers that pass their parameter on. -O2 inlines both
// and works. Expected: both levels compile and print 2x + 3x^2 = 16 at x = 2.
//
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t.O0 2>&1 | FileCheck %s --allow-empty %{no-crash} --implicit-check-not=error:
// RUN: %t.O0 | FileCheck %s --check-prefix=OUT
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t.O2 2>&1 | FileCheck %s --allow-empty %{no-crash} --implicit-check-not=error:
// RUN: %t.O2 | FileCheck %s --check-prefix=OUT

#include <cstdio>

extern "C" double __enzyme_autodiff(void *, ...);

static double square(double x) { return x * x; }
static double cube(double x) { return x * x * x; }

template <class F> double grad(F f, double x) {
  return __enzyme_autodiff((void *)f, x);
}
template <class F> double outer(F f, double x) { return grad(f, x) + grad(cube, x); }

// OUT: 16.0
int main() {
  std::printf("%.1f\n", outer(square, 2.0));
  return 0;
}
