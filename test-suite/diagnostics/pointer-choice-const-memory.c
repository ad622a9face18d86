// At -O1 and up the optimiser turns `cond ? x[1] : c[0]` into one load
// through `select cond, &x[1], &c[0]`. With x shadowed and c enzyme_const,
// that pointer has no shadow on one side: the engine used to give it a null
// one and the gradient wrote through it (C fuzzer seeds 864, 873: SIGSEGV at
// -O1, silently deleted code at -O2). Now it is a clean error that names the
// memory and says what to do. -O0 keeps two loads and is differentiated.
//
// RUN: not %clang_enzyme -fenzyme -O1 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t && %t

#include <stdio.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

double f(const double *c, double *x) {
  return x[0] * (c[1] < 0 ? x[1] : c[0]);
}

int main(void) {
  double c[2] = {2.0, 3.0}, x[2] = {3.0, 5.0}, dx[2] = {0, 0};
  // CHECK: pointer-choice-const-memory.c:[[@LINE+2]]:3: error: cannot differentiate 'f': cannot differentiate a pointer that chooses between memory with derivatives and {{.*}}; the optimiser merged the two accesses into one. Pass that memory as enzyme_dup with a zeroed shadow
  // CHECK-SAME: (the operation is at {{.*}}pointer-choice-const-memory.c:18:
  __enzyme_autodiff((void *)f, enzyme_const, c, enzyme_dup, x, dx);
  return !(dx[0] == 2.0 && dx[1] == 0.0);
}
