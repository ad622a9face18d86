// Misuses of vector mode (enzyme_width, N) are errors at the call: a width
// of 0 or one not known at compile time, too few tangents or shadows for
// the width, an enzyme_dupv stride not known at compile time, a declared
// result that cannot hold the N tangents, the width after the arguments,
// and vector mode where it is not supported yet (split mode, reverse mode).
//
// RUN: not %clang_enzyme -fenzyme -O0 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:

extern int enzyme_dup, enzyme_const, enzyme_width, enzyme_dupv, enzyme_out;
typedef struct { double d[2]; } w2;
w2 __enzyme_fwddiff(void *, ...);
double __enzyme_fwddiff_scalar(void *, ...);
void __enzyme_fwddiff_void(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
w2 __enzyme_autodiff(void *, ...);

double f(double x, double y) { return x * y; }
void g(const double *x, double *y) { y[0] = x[0] * x[1]; }

w2 width_zero(double x, double y) {
  // CHECK: {{.*}}vector-mode-misuse.c:[[@LINE+1]]:10: error: __enzyme_fwddiff: the width after 'enzyme_width' must be at least 1
  return __enzyme_fwddiff((void *)f, enzyme_width, 0, x, 1.0, y, 0.0);
}

w2 width_not_constant(double x, double y, int n) {
  // CHECK: {{.*}}vector-mode-misuse.c:[[@LINE+1]]:10: error: __enzyme_fwddiff: 'enzyme_width' must be followed by an integer known at compile time
  return __enzyme_fwddiff((void *)f, enzyme_width, n, x, 1.0, 0.0, y, 0.0, 1.0);
}

w2 too_few_tangents(double x, double y) {
  // CHECK: {{.*}}vector-mode-misuse.c:[[@LINE+1]]:10: error: __enzyme_fwddiff: enzyme_dup for parameter 1 of 'f' (double) needs 2 tangents after the value ('enzyme_width, 2'), but 1 is given
  return __enzyme_fwddiff((void *)f, enzyme_width, 2, enzyme_dup, x, 1.0, enzyme_const, y);
}

void too_few_shadows(double *x, double *dx0, double *y, double *dy0, double *dy1) {
  // CHECK: {{.*}}vector-mode-misuse.c:[[@LINE+1]]:3: error: __enzyme_fwddiff: enzyme_dup for parameter 1 of 'g' (pointer) needs 2 shadow pointers after the value ('enzyme_width, 2'), but 1 is given
  __enzyme_fwddiff_void((void *)g, enzyme_width, 2, enzyme_dup, x, dx0, enzyme_dup, y, dy0, dy1);
}

void stride_not_constant(double *x, double *dx, double *y, double *dy, long s) {
  // CHECK: {{.*}}vector-mode-misuse.c:[[@LINE+1]]:3: error: __enzyme_fwddiff: the byte stride after 'enzyme_dupv' for parameter 1 of 'g' (pointer) must be an integer known at compile time
  __enzyme_fwddiff_void((void *)g, enzyme_width, 2, enzyme_dupv, s, x, dx, enzyme_dupv, 16, y, dy);
}

w2 width_after_arguments(double x, double y) {
  // CHECK: {{.*}}vector-mode-misuse.c:[[@LINE+1]]:10: error: __enzyme_fwddiff: 'enzyme_width' must come before the arguments of 'f', which it applies to
  return __enzyme_fwddiff((void *)f, x, 1.0, enzyme_width, 2, y, 0.0, 1.0);
}

void *split_mode(double *x, double *dx0, double *dx1, double *y, double *dy0, double *dy1) {
  // CHECK: {{.*}}vector-mode-misuse.c:[[@LINE+1]]:10: error: __enzyme_augmentfwd: vector mode ('enzyme_width, 2') is not supported in split mode; use __enzyme_autodiff or __enzyme_fwddiff, or compute the directions one at a time
  return __enzyme_augmentfwd((void *)g, enzyme_width, 2, x, dx0, dx1, y, dy0, dy1);
}

w2 reverse_mode(double *x, double *dx0, double *dx1, double *y, double *dy0, double *dy1) {
  // CHECK: {{.*}}vector-mode-misuse.c:[[@LINE+1]]:10: error: __enzyme_autodiff: vector reverse mode ('enzyme_width, 2') is not supported yet; compute the gradients one seed at a time, or use __enzyme_fwddiff with enzyme_width
  return __enzyme_autodiff((void *)g, enzyme_width, 2, x, dx0, dx1, y, dy0, dy1);
}

// Errors of the result come when the request is lowered, after those of
// parsing.
double result_too_small(double x, double y) {
  // CHECK: {{.*}}vector-mode-misuse.c:[[@LINE+1]]:10: error: __enzyme_fwddiff is declared to return 'double', which cannot hold the tangents of the result of 'f' with 'enzyme_width, 2': 2 values (double, double); declare a struct with one field per value, in order (e.g. struct { double d[2]; })
  return __enzyme_fwddiff_scalar((void *)f, enzyme_width, 2, x, 1.0, 0.0, y, 0.0, 1.0);
}
