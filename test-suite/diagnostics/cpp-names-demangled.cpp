// Regression test: errors about C++ functions name them by their mangled
// symbol, e.g. "parameter 1 of '_ZN7physics6energyEPd' (ptr)" and
// "cannot differentiate a call to '_Z9potentiald'". A clang-style error
// should name 'physics::energy(double*)' and 'potential(double)' as clang
// does in its own diagnostics.
//
// RUN: not %clangxx_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=_ZN7physics6energyEPd
// RUN: not %clangxx_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=_ZN7physics6energyEPd
// RUN: rm -rf %t && mkdir %t
// RUN: %clangxx_enzyme -fenzyme -O2 -DLINK -c %s -o %t/link.o
// RUN: not %clangxx_enzyme -fenzyme -O2 %t/link.o -o %t/link.exe 2>&1 | FileCheck %s --check-prefix=LINK %{no-crash} --implicit-check-not=_Z9potentiald

extern "C" int enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);

double potential(double);

namespace physics {
double energy(double *x) { return x[0] * x[0]; }
double field(double x) { return potential(x) * x; }
} // namespace physics

#ifndef LINK
double bad(double *x) {
  // CHECK: {{.*}}cpp-names-demangled.cpp:[[@LINE+1]]:10: error: __enzyme_autodiff: enzyme_out needs a floating-point parameter, but parameter 1 of 'physics::energy{{.*}}' {{.*}}is not
  return __enzyme_autodiff((void *)physics::energy, enzyme_out, x);
}
#else
double dfield(double x) {
  // LINK: {{.*}}cpp-names-demangled.cpp:[[@LINE+1]]:10: {{.*}}cannot differentiate 'physics::field{{.*}}': cannot differentiate a call to 'potential{{.*}}'
  return __enzyme_autodiff((void *)physics::field, x);
}
int main() { return dfield(1.0) > 0; }
#endif
