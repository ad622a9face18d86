// Regression test: the C++ form of helper-two-function-parameters.c: a function
// template taking two callables and differentiating both crashes cc1 at -O0
// (segfault in enzyme::specializeFunctionArguments: the template instance is
// erased after specialising its first parameter, then its second parameter
// is used). Expected: compiles and computes 2x + 3x^2 at every level.
//
// RUN: %clangxx_enzyme -fenzyme -O0 -fno-crash-diagnostics %s -o %t.O0 2>&1 | FileCheck %s --allow-empty %{no-crash} --implicit-check-not=error:
// RUN: %t.O0 | FileCheck %s --check-prefix=OUT
// RUN: %clangxx_enzyme -fenzyme -O2 -fno-crash-diagnostics %s -o %t.O2 2>&1 | FileCheck %s --allow-empty %{no-crash} --implicit-check-not=error:
// RUN: %t.O2 | FileCheck %s --check-prefix=OUT

#include <cstdio>

extern "C" double __enzyme_autodiff(void *, ...);

static double square(double x) { return x * x; }
static double cube(double x) { return x * x * x; }

template <class F, class G> double both(F f, G g, double x) {
  return __enzyme_autodiff((void *)f, x) + __enzyme_autodiff((void *)g, x);
}

// OUT: 16.0
int main() {
  std::printf("%.1f\n", both(square, cube, 2.0));
  return 0;
}
