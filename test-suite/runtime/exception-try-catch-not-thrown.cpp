// A function with try/catch whose try body calls a function that may throw
// (and does not, at the points differentiated here): the derivative is that
// of the path that ran, in reverse, forward and split mode. At -O0 the calls
// are invokes with landing pads; at -O2 the catch survives because the
// callee is not inlined.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t.asan && %t.asan
#include "Inputs/check.h"
#include <stdexcept>

extern "C" {
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
extern int enzyme_dup, enzyme_out;
}

// Throws for a negative argument, like a checked square root would.
__attribute__((noinline)) double checked_sqrt(double x) {
  if (x < 0)
    throw std::domain_error("negative");
  return sqrt(x);
}

static int caught;

// sqrt(x) sin(x) where defined; the catch returns a constant.
double guarded(double x) {
  try {
    return checked_sqrt(x) * sin(x);
  } catch (const std::exception &) {
    ++caught;
    return -1.0;
  }
}

// The same through memory, for split mode.
void guarded_mem(const double *x, double *y) { *y = guarded(*x) * *x; }

static double guarded_mem_v(double x) {
  double y;
  guarded_mem(&x, &y);
  return y;
}

int main() {
  // The primal takes both paths, so the catch is real.
  check_close("primal catches", guarded(-1.0), -1.0, 0, 0);
  check_close("caught once", caught, 1, 0, 0);

  const double xs[] = {0.3, 1.7};
  for (double x : xs) {
    double expect = cos(x) * sqrt(x) + sin(x) / (2 * sqrt(x));
    double fd = fd_diff1(guarded, x);
    check_grad_at("reverse", x, __enzyme_autodiff((void *)guarded, x), expect,
                  fd);
    check_grad_at("forward", x, __enzyme_fwddiff((void *)guarded, x, 1.0),
                  expect, fd);

    double y = 0, dy = 1, dx = 0;
    void *tape = __enzyme_augmentfwd((void *)guarded_mem, enzyme_dup, &x, &dx,
                                     enzyme_dup, &y, &dy);
#ifndef ENZYME_RT_SELFTEST
    check_close("split primal", y, guarded(x) * x, RTOL_EXACT, ATOL_EXACT);
#endif
    __enzyme_reverse((void *)guarded_mem, enzyme_dup, &x, &dx, enzyme_dup, &y,
                     &dy, tape);
    check_grad_at("split", x, dx, expect * x + guarded(x),
                  fd_diff1(guarded_mem_v, x));
  }
  check_close("no exception while differentiating", caught, 1, 0, 0);
  return check_done();
}
