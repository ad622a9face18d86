// Misuse of split mode is an error at the call: no tape after the
// arguments, no adjoint of a float result, an augmented forward pass whose
// tape is thrown away, an inline tape too small for what the reverse pass
// needs (the error says how many bytes), of a size the compiler cannot
// bound (a loop recording values), or larger than the type that carries it.
//
// RUN: not %clang_enzyme -fenzyme -O0 -g -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:

extern int enzyme_dup, enzyme_allocated;
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_augmentfwd_void(void *, ...);
void __enzyme_reverse(void *, ...);
double __enzyme_reverse_d(void *, ...);
float __enzyme_augmentfwd_f(void *, ...);
double __enzyme_augmentfwd_d(void *, ...);

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

float too_small(double *x, double *dx, double *y, double *dy) {
  // CHECK: {{.*}}split-misuse.c:[[@LINE+1]]:10: error: __enzyme_augmentfwd: the tape of 'scale' needs 8 bytes, but 'enzyme_allocated' gives 4; pass 'enzyme_allocated, 8' (and make the tape that large)
  return __enzyme_augmentfwd_f((void *)scale, enzyme_allocated, 4, x, dx, y, dy);
}

void sum_squares(double *x, double *y, int n) {
  for (int i = 0; i < n; ++i)
    *y += x[i] * x[i];
}

double unbounded(double *x, double *dx, double *y, double *dy, int n) {
  // CHECK: {{.*}}split-misuse.c:[[@LINE+1]]:10: error: cannot differentiate 'sum_squares': an inline tape ('enzyme_allocated') has a size fixed at compile time, but this loop records values on every iteration; leave the marker out to get the tape as a pointer
  return __enzyme_augmentfwd_d((void *)sum_squares, enzyme_allocated, 8, x, dx, y, dy, n);
}

float too_narrow(double *x, double *dx, double *y, double *dy) {
  // CHECK: {{.*}}split-misuse.c:[[@LINE+1]]:10: error: __enzyme_augmentfwd is declared to return 'float' (4 bytes), but 'enzyme_allocated' says the inline tape has 8 bytes
  return __enzyme_augmentfwd_f((void *)scale, enzyme_allocated, 8, x, dx, y, dy);
}
