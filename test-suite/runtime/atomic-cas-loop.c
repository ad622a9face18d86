// Regression test: an atomic addition written as a compare-and-swap loop
// on a double's bits (GCC's __sync builtins), as host code without C11
// atomics of doubles writes it. The derivative went through the integers
// of the swap: an error. Now the loop is the atomic addition it computes
// (Modes/AtomicUpdateLoops.h); CUDA's form is
// cuda/autodiff/atomic-cas-loops.cu. Analytic values and central
// differences, -O0 and -O2, reverse and forward mode.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

#include <stdint.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

static void atomicAdd(double *p, double v) {
  uint64_t *bits = (uint64_t *)p, old = *bits, assumed;
  do {
    assumed = old;
    double current, next;
    memcpy(&current, &assumed, sizeof current);
    next = current + v;
    uint64_t nextBits;
    memcpy(&nextBits, &next, sizeof nextBits);
    old = __sync_val_compare_and_swap(bits, assumed, nextBits);
  } while (old != assumed);
}

// sum x_i^2 sin(i) added atomically, then scaled.
__attribute__((noinline)) double f(double x) {
  double total = 0;
  for (int i = 1; i <= 4; ++i)
    atomicAdd(&total, x * x * sin(i) + i * x);
  return 3 * total;
}

int main(void) {
  const double xs[] = {0.5, -1.25, 2.0};
  for (unsigned k = 0; k < sizeof xs / sizeof *xs; ++k) {
    double x = xs[k], want = 0;
    for (int i = 1; i <= 4; ++i)
      want += 3 * (2 * x * sin(i) + i);
    check_grad_at("reverse", x, __enzyme_autodiff((void *)f, x), want,
                  fd_diff1(f, x));
    check_grad_at("forward", x, __enzyme_fwddiff((void *)f, x, 1.0), want,
                  fd_diff1(f, x));
  }
  return check_done();
}
