// Misuses of vector mode (enzyme_width, N) are errors at the call: a width
// of 0 or one not known at compile time, too few tangents or shadows for
// the width, an enzyme_dupv stride not known at compile time, a declared
// result that cannot hold the N tangents, the width after the arguments;
// in vector reverse and split mode, too few adjoints of the result for
// __enzyme_reverse, split halves with different widths, a custom gradient
// (one direction) and a global with one declared shadow.
//
// RUN: not %clang_enzyme -fenzyme -O0 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:

extern int enzyme_dup, enzyme_const, enzyme_width, enzyme_dupv, enzyme_out;
typedef struct { double d[2]; } w2;
w2 __enzyme_fwddiff(void *, ...);
double __enzyme_fwddiff_scalar(void *, ...);
void __enzyme_fwddiff_void(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
w2 __enzyme_autodiff(void *, ...);
void __enzyme_autodiff_void(void *, ...);

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

void split_too_few_adjoints(double x, void *tape) {
  // CHECK: {{.*}}vector-mode-misuse.c:[[@LINE+1]]:3: error: __enzyme_reverse: the adjoint of the result of 'f' must be a 'double', not a 'pointer'
  __enzyme_reverse((void *)f, enzyme_width, 2, x, enzyme_const, 1.0, 1.0, tape);
}

void split_too_few_arguments(double x) {
  // CHECK: {{.*}}vector-mode-misuse.c:[[@LINE+1]]:3: error: __enzyme_reverse: too few arguments: 'f' returns a 'double', so 2 adjoints of its result ('enzyme_width, 2') must follow the arguments
  __enzyme_reverse((void *)f, enzyme_width, 2, x, enzyme_const, 1.0, 1.0);
}

void *split_widths_differ(double *x, double *dx0, double *dx1, double *y,
                          double *dy0, double *dy1) {
  // CHECK: {{.*}}vector-mode-misuse.c:[[@LINE+1]]:16: error: __enzyme_augmentfwd: the width of 'g' ('enzyme_width, 2') differs from that of __enzyme_reverse at {{.*}}vector-mode-misuse.c:[[@LINE+3]]:3 (1); both halves of split mode must compute the same directions, since they share the tape
  void *tape = __enzyme_augmentfwd((void *)g, enzyme_width, 2, x, dx0, dx1, y, dy0, dy1);
  // CHECK: {{.*}}vector-mode-misuse.c:[[@LINE+1]]:3: error: __enzyme_reverse: the width of 'g' ('enzyme_width, 1') differs from that of __enzyme_augmentfwd at {{.*}}vector-mode-misuse.c:[[@LINE-1]]:16 (2); both halves of split mode must compute the same directions, since they share the tape
  __enzyme_reverse((void *)g, x, dx0, y, dy0, tape);
  return tape;
}

double custom(double x);
double custom_fwd(double x);
double custom_rev(double x, double d);
void *__enzyme_register_gradient_custom[3] = {(void *)custom, (void *)custom_fwd,
                                              (void *)custom_rev};
w2 custom_gradient(double x) {
  // CHECK: {{.*}}vector-mode-misuse.c:[[@LINE+1]]:10: error: cannot differentiate 'custom': 'custom' has a custom gradient, which computes one direction; vector reverse mode (enzyme_width 2) cannot use it, compute the gradients one seed at a time
  return __enzyme_autodiff((void *)custom, enzyme_width, 2, x);
}

double g_value;
double g_shadow;
double __attribute__((enzyme_shadow(g_shadow))) g_value;
void store_global(const double *x) { g_value = x[0] * x[0]; }
void declared_shadow(double *x, double *dx0, double *dx1) {
  // CHECK: {{.*}}vector-mode-misuse.c:[[@LINE+1]]:3: error: cannot differentiate 'store_global': a global with a declared shadow (enzyme_shadow) is used in vector reverse mode (enzyme_width 2), which needs one shadow per direction; compute the gradients one seed at a time
  __enzyme_autodiff_void((void *)store_global, enzyme_width, 2, x, dx0, dx1);
}

// Errors of the result come when the request is lowered, after those of
// parsing.
double result_too_small(double x, double y) {
  // CHECK: {{.*}}vector-mode-misuse.c:[[@LINE+1]]:10: error: __enzyme_fwddiff is declared to return 'double', which cannot hold the tangents of the result of 'f' with 'enzyme_width, 2': 2 values (double, double); declare a struct with one field per value, in order (e.g. struct { double d[2]; })
  return __enzyme_fwddiff_scalar((void *)f, enzyme_width, 2, x, 1.0, 0.0, y, 0.0, 1.0);
}
