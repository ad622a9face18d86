// Regression test: without -g, a request deferred to link time is reported by lld as
//   ld.lld: error: <unknown>:0:0: in function denergy double (double): FILE:LINE:COL: cannot differentiate ...
// The compile-time run saved the call's location (!enzyme.srcloc) and the
// engine prepends it to the message, but the diagnostic itself carries no
// location, so lld first prints a meaningless "<unknown>:0:0:". The location
// should lead, as it does with -g (see missing-definition-link.c).
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_enzyme -fenzyme -O0 -c %s -o %t/O0.o
// RUN: %clang_enzyme -fenzyme -O2 -c %s -o %t/O2.o
// RUN: not %clang_enzyme -fenzyme -O0 %t/O0.o -o %t/O0.exe 2>&1 | FileCheck %s %{no-crash} --implicit-check-not="<unknown>"
// RUN: not %clang_enzyme -fenzyme -O2 %t/O2.o -o %t/O2.exe 2>&1 | FileCheck %s %{no-crash} --implicit-check-not="<unknown>"

double __enzyme_autodiff(void *, ...);

double potential(double); // no definition anywhere

double energy(double x) { return 2 * potential(x) * x; }

double denergy(double x) {
  // CHECK: ld.lld: error: {{[^ ]*}}missing-definition-link-no-g.c:[[@LINE+1]]:10: {{(in function [^:]*: )?}}cannot differentiate 'energy': cannot differentiate a call to 'potential'
  return __enzyme_autodiff((void *)energy, x);
}

int main(void) { return denergy(1.5) > 0; }
