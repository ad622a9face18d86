// Misuse of the context API (enzyme_context, __enzyme_shadow) is an error
// at the call: an address that is not a known global, flags that are not a
// known constant, a global that takes no shadow from a context, a context
// with vector mode, and a marker without its context.
//
// RUN: not %clang_enzyme -fenzyme -O0 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
// RUN: not %clang_enzyme -fenzyme -O2 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:

#include <enzyme/enzyme.h>

double __enzyme_autodiff(void *, ...);
typedef struct {
  double d[2];
} pair2;
pair2 __enzyme_fwddiff(void *, ...);

double g = 2.0;
const double table[2] = {1.0, 2.0};
double *where;

double f(double x) { return g * x; }

void *not_a_global(void *ctx, double *p) {
  // CHECK: {{.*}}context-misuse.c:[[@LINE+1]]:10: error: __enzyme_shadow: the second argument must be the address of a global variable (or of an element of one) known at compile time
  return __enzyme_shadow(ctx, p, 0);
}

void *runtime_flags(void *ctx, int flags) {
  // CHECK: {{.*}}context-misuse.c:[[@LINE+1]]:10: error: __enzyme_shadow: the flags must be a constant (0, or 1 to zero the shadow first)
  return __enzyme_shadow(ctx, &g, flags);
}

void *unknown_flags(void *ctx) {
  // CHECK: {{.*}}context-misuse.c:[[@LINE+1]]:10: error: __enzyme_shadow: unknown flags 4; the flags are 0, or 1 to zero the shadow first
  return __enzyme_shadow(ctx, &g, 4);
}

void *constant_global(void *ctx) {
  // CHECK: {{.*}}context-misuse.c:[[@LINE+1]]:10: error: __enzyme_shadow: the global 'table' has no shadow in a context: it is constant, so it carries no derivative
  return __enzyme_shadow(ctx, (void *)&table[1], 0);
}

void *pointer_global(void *ctx) {
  // CHECK: {{.*}}context-misuse.c:[[@LINE+1]]:10: error: __enzyme_shadow: the global 'where' has no shadow in a context: it holds pointers, and a context gives shadows only to globals of floating-point data
  return __enzyme_shadow(ctx, &where, 0);
}

void *past_the_end(void *ctx) {
  // CHECK: {{.*}}context-misuse.c:[[@LINE+1]]:10: error: __enzyme_shadow: the address is outside the global 'g' (offset 8, size 8)
  return __enzyme_shadow(ctx, &g + 1, 0);
}

pair2 vector_mode(void *ctx, double x) {
  // CHECK: {{.*}}context-misuse.c:[[@LINE+1]]:10: error: __enzyme_fwddiff: 'enzyme_context' with vector mode ('enzyme_width, 2'): a context keeps one shadow per global, which holds one direction; compute the directions one at a time
  return __enzyme_fwddiff((void *)f, enzyme_width, 2, enzyme_context, ctx, x,
                          1.0, 0.0);
}

double missing_context(double x) {
  // CHECK: {{.*}}context-misuse.c:[[@LINE+1]]:10: error: __enzyme_autodiff: 'enzyme_context' must be followed by the context (from __enzyme_context())
  return __enzyme_autodiff((void *)f, enzyme_context, enzyme_out, x);
}
