// enzyme_nocache promises that a pointer's memory is not changed between the
// two halves of split mode. It is an error in forward mode (no tape), on a
// parameter that is not a pointer, anywhere but before a parameter's activity
// marker or value, and when the two halves of a pair disagree about it (they
// share the tape's layout). __enzyme_autodiff accepts it.
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:

extern int enzyme_dup, enzyme_const, enzyme_nocache;
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

void scale(double *x, double *y, int n) { *y = 3 * *x * *x * n; }

void forward(double *x, double *dx, double *y, double *dy) {
  // CHECK: {{.*}}nocache-misuse.c:[[@LINE+1]]:3: error: __enzyme_fwddiff: 'enzyme_nocache' promises that memory is not changed between the augmented forward and the reverse pass; forward mode has no tape, so it is not meaningful here
  __enzyme_fwddiff((void *)scale, enzyme_nocache, enzyme_dup, x, dx, y, dy, enzyme_const, 1);
}

void not_a_pointer(double *x, double *dx, double *y, double *dy) {
  // CHECK: {{.*}}nocache-misuse.c:[[@LINE+1]]:16: error: __enzyme_augmentfwd: 'enzyme_nocache' needs a pointer parameter (it promises that the memory the pointer reaches is not changed), but parameter 3 of 'scale' (int) is not
  void *tape = __enzyme_augmentfwd((void *)scale, x, dx, y, dy, enzyme_nocache, enzyme_const, 1);
  (void)tape;
}

void after_activity(double *x, double *dx, double *y, double *dy) {
  // CHECK: {{.*}}nocache-misuse.c:[[@LINE+1]]:3: error: __enzyme_autodiff: enzyme_dup must be followed by the value for parameter 1 of 'scale' (pointer), not by the marker 'enzyme_nocache'
  __enzyme_autodiff((void *)scale, enzyme_dup, enzyme_nocache, x, dx, y, dy, enzyme_const, 1);
}

void twice(double *x, double *dx, double *y, double *dy) {
  // CHECK: {{.*}}nocache-misuse.c:[[@LINE+1]]:3: error: __enzyme_autodiff: 'enzyme_nocache' must be followed by the activity marker or the value of parameter 1 of 'scale' (pointer), not by 'enzyme_nocache'
  __enzyme_autodiff((void *)scale, enzyme_nocache, enzyme_nocache, x, dx, y, dy, enzyme_const, 1);
}

void accepted(double *x, double *dx, double *y, double *dy) {
  __enzyme_autodiff((void *)scale, enzyme_nocache, enzyme_dup, x, dx, y, dy, enzyme_const, 1);
}

void halves_differ(double *x, double *dx, double *y, double *dy) {
  // CHECK: {{.*}}nocache-misuse.c:[[@LINE+1]]:16: error: __enzyme_augmentfwd: the 'enzyme_nocache' markers of 'scale' differ from those of __enzyme_reverse at {{.*}}nocache-misuse.c:[[@LINE+2]]:3; both halves of split mode must mark every argument the same way, since they share the tape
  void *tape = __enzyme_augmentfwd((void *)scale, enzyme_nocache, x, dx, y, dy, enzyme_const, 1);
  __enzyme_reverse((void *)scale, x, dx, y, dy, enzyme_const, 1, tape);
  // CHECK: {{.*}}nocache-misuse.c:[[@LINE-1]]:3: error: __enzyme_reverse: the 'enzyme_nocache' markers of 'scale' differ from those of __enzyme_augmentfwd at {{.*}}nocache-misuse.c:[[@LINE-2]]:16
}
