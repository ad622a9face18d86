// Regression test: inline assembly in the differentiated function is reported
// as "cannot differentiate an indirect call whose arguments or result carry
// derivatives" (an InlineAsm callee has no Function, so ReversePlan takes it
// for an indirect call). There is no indirect call in the program; the error
// should say inline assembly cannot be differentiated (and what to do: mark
// the function inactive or give it a custom derivative). This also hits the
// common benchmark idiom `asm volatile("" : : "r"(p) : "memory")`.
// (An empty statement whose outputs are tied to its inputs computes nothing
// and is differentiated: runtime/inline-asm-optimisation-barrier.c.)
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not="indirect call"
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not="indirect call"

double __enzyme_autodiff(void *, ...);

double opaque(double x) {
  double r;
  __asm__("sqrtsd %1, %0" : "=x"(r) : "x"(x));
  return r * x;
}

double bad(double x) {
  // CHECK: {{.*}}inline-asm-message.c:[[@LINE+1]]:10: error: cannot differentiate 'opaque': {{.*}}inline assembly
  return __enzyme_autodiff((void *)opaque, x);
}
