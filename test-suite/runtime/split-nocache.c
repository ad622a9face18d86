// enzyme_nocache before a pointer's activity marker in split mode: the caller
// promises that the memory the pointer reaches is not changed between
// __enzyme_augmentfwd and __enzyme_reverse, so the reverse half reloads the
// inputs it needs instead of recording them on the tape. The gradient is the
// same as without the marker, the inline tape (__enzyme_augmentsize) is
// smaller, and __enzyme_autodiff accepts the marker (its two passes run back
// to back anyway). The functions take restrict pointers: values are reloaded
// only from memory the function itself does not write.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
void __enzyme_autodiff(void *, ...);
unsigned long __enzyme_augmentsize(void *, ...);
extern int enzyme_dup, enzyme_const, enzyme_nocache, enzyme_allocated;

// y[i] = sin(x[i]) * x[i] for i < n, with a trip count known only at run time.
__attribute__((noinline)) void sinx(const double *restrict x, double *restrict y, int n) {
  for (int i = 0; i < n; ++i)
    y[i] = sin(x[i]) * x[i];
}

// Two outputs from two inputs, no loop: a tape of fixed size.
__attribute__((noinline)) void pair(const double *restrict x, double *restrict y) {
  y[0] = x[0] * x[1];
  y[1] = x[0] * x[0] * x[1];
}

int main(void) {
  enum { N = 5 };
  double x[N], dx[N] = {0}, y[N], dy[N];
  for (int i = 0; i < N; ++i) {
    x[i] = 0.3 + 0.4 * i;
    dy[i] = 1.0 + i;
  }
  void *tape = __enzyme_augmentfwd((void *)sinx, enzyme_nocache, enzyme_dup, x,
                                   dx, enzyme_dup, y, dy, enzyme_const, N);
  for (int i = 0; i < N; ++i)
    check_close("primal", y[i], sin(x[i]) * x[i], RTOL_EXACT, ATOL_EXACT);
  __enzyme_reverse((void *)sinx, enzyme_nocache, enzyme_dup, x, dx, enzyme_dup,
                   y, dy, enzyme_const, N, tape);
  for (int i = 0; i < N; ++i) {
    double a = x[i];
    check_close("dx", dx[i], (1.0 + i) * (cos(a) * a + sin(a)), RTOL_EXACT,
                ATOL_EXACT);
    check_close("dy consumed", dy[i], 0.0, 0.0, 0.0);
  }

  // The same gradient through __enzyme_autodiff, marker accepted.
  double dx2[N] = {0}, dy2[N];
  for (int i = 0; i < N; ++i)
    dy2[i] = 1.0 + i;
  __enzyme_autodiff((void *)sinx, enzyme_nocache, enzyme_dup, x, dx2,
                    enzyme_dup, y, dy2, enzyme_const, N);
  for (int i = 0; i < N; ++i)
    check_close("autodiff dx", dx2[i], dx[i], RTOL_EXACT, ATOL_EXACT);

  // The inline tape of pair: the inputs are on it without the marker.
  unsigned long plain = __enzyme_augmentsize((void *)pair, enzyme_dup,
                                             enzyme_dup);
  unsigned long kept = __enzyme_augmentsize((void *)pair, enzyme_nocache,
                                            enzyme_dup, enzyme_dup);
  printf("augmentsize: %lu without enzyme_nocache, %lu with\n", plain, kept);
  // Built with AddressSanitizer (scripts/test --sanitize) the two tapes are
  // the same size: its instrumented accesses keep alias analysis from
  // proving the inputs unmodified, so nothing is reloaded (docs/
  // reliability.md, "Sanitizer runs"). The gradients below must still be
  // right.
#if !__has_feature(address_sanitizer)
  check_close("tape smaller", kept < plain, 1.0, 0.0, 0.0);
#endif

  double p[2] = {1.5, -0.5}, dp[2] = {0}, q[2], dq[2] = {1.0, 2.0};
  void *t2 = __enzyme_augmentfwd((void *)pair, enzyme_nocache, enzyme_dup, p,
                                 dp, enzyme_dup, q, dq);
  __enzyme_reverse((void *)pair, enzyme_nocache, enzyme_dup, p, dp, enzyme_dup,
                   q, dq, t2);
  // dq0 * (x1, x0) + dq1 * (2 x0 x1, x0^2)
  check_close("dpair/dx0", dp[0], 1.0 * p[1] + 2.0 * 2 * p[0] * p[1],
              RTOL_EXACT, ATOL_EXACT);
  check_close("dpair/dx1", dp[1], 1.0 * p[0] + 2.0 * p[0] * p[0], RTOL_EXACT,
              ATOL_EXACT);
  return check_done();
}
