// A pointer that chooses between memory with derivatives and memory without
// (an enzyme_const argument), written through and read back. The side
// without a shadow gets a scratch shadow, zeroed memory at the same
// offsets, when it is taken: the value written there keeps its derivative
// while the call runs, and what is left there at the end has none (the
// memory is constant), as enzyme_dup with a zeroed shadow would give.
// Before, the program stopped with a message when it took that side (and
// earlier still, this was a compile-time error). Eigen's GEMM makes such a
// choice (its caller's workspace or a buffer of its own) in every dynamic
// matrix product at -O0. Reverse and forward mode, -O0 and -O2, both sides,
// and the scratch shadow zeroed again for the next call.
// RUN: %clang_enzyme -fenzyme -O0 -g %s -o %t -lm
// RUN: %t
// RUN: %clang_enzyme -fenzyme -O2 -g %s -o %t2 -lm
// RUN: %t2
// RUN: %clang_enzyme -fenzyme -O0 -g -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t3 -lm
// RUN: %t3
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

// k: out = x + 1, x1 = x0^2 + 3 x0^2 = 4 x0^2.
// otherwise: out = c, c0 = x0^2, x1 = x1 + 3 x0^2.
__attribute__((noinline)) void scale_into(double *c, double *x, int k) {
  double *out = k ? x + 1 : c;
  out[0] = x[0] * x[0];
  x[1] += 3 * out[0];
}

static void check_side(int k) {
  for (int call = 0; call < 2; ++call) {
    double c[1] = {0}, x[2] = {1.5, 0.25}, dx[2] = {0, 1};
    __enzyme_autodiff((void *)scale_into, enzyme_const, c, enzyme_dup, x, dx,
                      k);
    check_close("d/dx0", dx[0], (k ? 8 : 6) * 1.5, RTOL_EXACT, ATOL_EXACT);
    check_close("d/dx1", dx[1], k ? 0 : 1, RTOL_EXACT, ATOL_EXACT);
    double t[2] = {1, 0};
    x[0] = 1.5;
    x[1] = 0.25;
    __enzyme_fwddiff((void *)scale_into, enzyme_const, c, enzyme_dup, x, t, k);
    check_close("tangent of x[1]", t[1], (k ? 8 : 6) * 1.5, RTOL_EXACT,
                ATOL_EXACT);
  }
}

int main(void) {
  check_side(1);
  check_side(0);
  return check_done();
}
