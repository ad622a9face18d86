// The two halves of split mode share the tape's layout, so they must mark
// every argument the same way: a pair whose activities differ is an error at
// each half, naming where the other half is.
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:

extern int enzyme_dup, enzyme_const;
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

void scale(double *x, double *y) { *y = 3 * *x * *x; }

void halves(double *x, double *dx, double *y, double *dy) {
  // CHECK: {{.*}}split-activities-differ.c:[[@LINE+1]]:16: error: __enzyme_augmentfwd: the activities of 'scale' differ from those of __enzyme_reverse at {{.*}}split-activities-differ.c:[[@LINE+2]]:3; both halves of split mode must mark every argument the same way, since they share the tape
  void *tape = __enzyme_augmentfwd((void *)scale, enzyme_dup, x, dx, enzyme_dup, y, dy);
  __enzyme_reverse((void *)scale, enzyme_const, x, enzyme_dup, y, dy, tape);
  // CHECK: {{.*}}split-activities-differ.c:[[@LINE-1]]:3: error: __enzyme_reverse: the activities of 'scale' differ from those of __enzyme_augmentfwd at {{.*}}split-activities-differ.c:[[@LINE-2]]:16
}
