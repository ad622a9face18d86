// Split mode: __enzyme_augmentfwd runs the function and returns a tape,
// __enzyme_reverse takes it and accumulates the gradient. The caller may
// overwrite the inputs in between: what the reverse pass needs is on the
// tape, so the gradient is the one at the inputs the forward half saw.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O3 %s -o %t -lm && %t
#include "Inputs/check.h"

void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
extern int enzyme_dup, enzyme_const;

// y[i] = sin(x[i]) * x[i] for i < n, with a trip count known only at run time.
__attribute__((noinline)) void sinx(const double *x, double *y, int n) {
  for (int i = 0; i < n; ++i)
    y[i] = sin(x[i]) * x[i];
}

int main(void) {
  enum { N = 5 };
  double x[N], saved[N], dx[N] = {0}, y[N], dy[N];
  for (int i = 0; i < N; ++i) {
    x[i] = 0.3 + 0.4 * i;
    saved[i] = x[i];
    dy[i] = 1.0 + i;
  }
  void *tape = __enzyme_augmentfwd((void *)sinx, enzyme_dup, x, dx, enzyme_dup,
                                   y, dy, enzyme_const, N);
  for (int i = 0; i < N; ++i) {
    check_close("primal", y[i], sin(saved[i]) * saved[i], RTOL_EXACT, ATOL_EXACT);
    x[i] = -7.0; // the reverse half must not read the inputs again
  }
  __enzyme_reverse((void *)sinx, enzyme_dup, x, dx, enzyme_dup, y, dy,
                   enzyme_const, N, tape);
  for (int i = 0; i < N; ++i) {
    double a = saved[i];
    check_close("dx", dx[i], (1.0 + i) * (cos(a) * a + sin(a)), RTOL_EXACT,
                ATOL_EXACT);
    check_close("dy consumed", dy[i], 0.0, 0.0, 0.0);
  }
  return check_done();
}
