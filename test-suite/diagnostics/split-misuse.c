// Misuse of split mode is an error at the call: no tape after the
// arguments, no adjoint of a float result, an augmented forward pass whose
// tape is thrown away, and inline tapes / __enzyme_augmentsize (not yet
// supported) are all refused, never silently miscompiled.
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:

extern int enzyme_dup, enzyme_allocated;
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_augmentfwd_void(void *, ...);
void __enzyme_reverse(void *, ...);
double __enzyme_reverse_d(void *, ...);
unsigned long __enzyme_augmentsize(void *, ...);

void scale(double *x, double *y) { *y = 3 * *x * *x; }
double value(double x) { return x * x; }

void no_tape(double *x, double *dx, double *y, double *dy) {
  // CHECK: {{.*}}split-misuse.c:[[@LINE+1]]:3: error: __enzyme_reverse: too few arguments: the tape that __enzyme_augmentfwd returned must come last (or after 'enzyme_tape')
  __enzyme_reverse((void *)scale, x, dx, y, dy);
}

double no_adjoint(double x, void *tape) {
  // CHECK: {{.*}}split-misuse.c:[[@LINE+1]]:10: error: __enzyme_reverse: the adjoint of the result of 'value' must be a 'double', not a 'pointer'
  return __enzyme_reverse_d((void *)value, x, tape);
}

void tape_dropped(double *x, double *dx, double *y, double *dy) {
  // CHECK: {{.*}}split-misuse.c:[[@LINE+1]]:3: error: __enzyme_augmentfwd returns the tape that __enzyme_reverse needs; declare it to return void* (or a struct of the tape and the primal result)
  __enzyme_augmentfwd_void((void *)scale, x, dx, y, dy);
}

void *inline_tape(double *x, double *dx, double *y, double *dy) {
  // CHECK: {{.*}}split-misuse.c:[[@LINE+1]]:10: error: __enzyme_augmentfwd: inline tapes ('enzyme_allocated') are not supported yet
  return __enzyme_augmentfwd((void *)scale, enzyme_allocated, 8, x, dx, y, dy);
}

unsigned long tape_size(void) {
  // CHECK: {{.*}}split-misuse.c:[[@LINE+1]]:10: error: __enzyme_augmentsize: inline tapes are not supported yet
  return __enzyme_augmentsize((void *)scale, enzyme_dup, enzyme_dup);
}
