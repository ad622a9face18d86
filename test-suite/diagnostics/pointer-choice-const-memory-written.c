// A pointer that chooses between memory with derivatives and memory
// without, written through: a derivative stored on the side without a
// shadow would be lost, so this stays an error (reads through such a
// choice are split instead, runtime/activity-choice-const-memory.c).
//
// RUN: not %clang_enzyme -fenzyme -O0 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

__attribute__((noinline)) void scale_into(double *c, double *x, int k) {
  double *out = k ? x + 1 : c;
  out[0] = x[0] * x[0];
}

void grad(double *c, double *x, double *dx, int k) {
  // CHECK: pointer-choice-const-memory-written.c:[[@LINE+1]]:3: error: cannot differentiate 'scale_into': cannot differentiate a pointer that chooses between memory with derivatives and {{.*}}
  __enzyme_autodiff((void *)scale_into, enzyme_const, c, enzyme_dup, x, dx, k);
}
