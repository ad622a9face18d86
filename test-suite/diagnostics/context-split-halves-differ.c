// Both halves of split mode must get the same context semantics: a pair
// where one half has enzyme_context and the other does not is an error at
// each half, naming where the other one is.
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:

#include <enzyme/enzyme.h>

void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

double scale = 3.0;
void mul(double *x, double *y) { *y = scale * *x; }

void halves(void *ctx, double *x, double *dx, double *y, double *dy) {
  // CHECK: {{.*}}context-split-halves-differ.c:[[@LINE+1]]:16: error: __enzyme_augmentfwd: this half of split mode of 'mul' has an enzyme_context, but __enzyme_reverse at {{.*}}context-split-halves-differ.c:[[@LINE+2]]:3 has none; give both halves the same context, since the globals' shadows are kept in it
  void *tape = __enzyme_augmentfwd((void *)mul, enzyme_context, ctx, x, dx, y, dy);
  __enzyme_reverse((void *)mul, x, dx, y, dy, tape);
  // CHECK: {{.*}}context-split-halves-differ.c:[[@LINE-1]]:3: error: __enzyme_reverse: this half of split mode of 'mul' has no enzyme_context, but __enzyme_augmentfwd at {{.*}}context-split-halves-differ.c:[[@LINE-2]]:16 has one
}
