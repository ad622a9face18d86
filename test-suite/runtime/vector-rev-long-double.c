// Vector reverse mode with long double: in a width-2 reverse sweep the
// adjoint of `(long double)a` (fpext double -> x86_fp80) was emitted as
// `fptrunc <2 x double> <1.0, 1.0> to [2 x x86_fp80]`, a cast the verifier
// rejects; clang runs without the verifier, so the x86 backend crashed in
// instruction selection (-O0 and -O2). Found by the C fuzzer's vrev check
// (seeds 4 and 31, every program with long double math). The lanes of a
// long double adjoint are an array: the cast is now lane by lane.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_width, enzyme_dup;

typedef struct {
  double d[2];
} grads2;
grads2 __enzyme_autodiff_w2(void *, ...);
void __enzyme_autodiff_void(void *, ...);
#ifdef ENZYME_RT_SELFTEST
grads2 __enzyme_autodiff_w2(void *f, ...) {
  grads2 r = {{0}};
  (void)f;
  return r;
}
void __enzyme_autodiff_void(void *f, ...) { (void)f; }
#endif

/* The square, computed in long double. */
__attribute__((noinline)) double f(double a) {
  return (double)((long double)a * (long double)a);
}

/* The same through an output: seeds 1 and 2 in the two lanes. */
__attribute__((noinline)) void g(const double *x, double *out) {
  long double t = x[0];
  out[0] = (double)(t * t * t);
}

int main(void) {
  double a = 1.5;
  grads2 d = __enzyme_autodiff_w2((void *)f, enzyme_width, 2, a);
  check_close("df/da lane 0", d.d[0], 2 * a, RTOL_EXACT, ATOL_EXACT);
  check_close("df/da lane 1", d.d[1], 2 * a, RTOL_EXACT, ATOL_EXACT);

  double x[1] = {0.7}, out[1], dx0[1] = {0}, dx1[1] = {0};
  double dout0[1] = {1.0}, dout1[1] = {2.0};
  __enzyme_autodiff_void((void *)g, enzyme_width, 2, enzyme_dup, x, dx0, dx1,
                         enzyme_dup, out, dout0, dout1);
  check_close("dg/dx lane 0", dx0[0], 3 * x[0] * x[0], RTOL_EXACT, ATOL_EXACT);
  check_close("dg/dx lane 1", dx1[0], 6 * x[0] * x[0], RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
