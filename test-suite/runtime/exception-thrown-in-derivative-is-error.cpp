// An exception thrown by a call inside differentiated code while the
// derivative runs is not differentiated: the program stops with a message
// that names the function and where it threw, even though the caller of the
// derivative would catch it (unwinding on would leak the tape and skip the
// reverse pass). One binary, one run per mode: reverse, forward, and each
// half of split mode (the reverse half throws from a custom gradient).
// RUN: %clangxx_enzyme -fenzyme -O0 -g %s -o %t
// RUN: not --crash %t reverse 2>&1 | FileCheck %s --check-prefixes=CHECK,F
// RUN: not --crash %t forward 2>&1 | FileCheck %s --check-prefixes=CHECK,F
// RUN: not --crash %t augment 2>&1 | FileCheck %s --check-prefixes=CHECK,F
// RUN: not --crash %t split-reverse 2>&1 | FileCheck %s --check-prefixes=CHECK,G
// RUN: %t none | FileCheck %s --check-prefix=NONE
// RUN: %clangxx_enzyme -fenzyme -O2 -g %s -o %t2
// RUN: not --crash %t2 reverse 2>&1 | FileCheck %s --check-prefixes=CHECK,F
// RUN: not --crash %t2 forward 2>&1 | FileCheck %s --check-prefixes=CHECK,F
// RUN: not --crash %t2 augment 2>&1 | FileCheck %s --check-prefixes=CHECK,F
// RUN: not --crash %t2 split-reverse 2>&1 | FileCheck %s --check-prefixes=CHECK,G
// Without -g the driver's line tables still locate the call.
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t3
// RUN: not --crash %t3 reverse 2>&1 | FileCheck %s --check-prefixes=CHECK,F
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

extern "C" {
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
extern int enzyme_dup;
}

// CHECK: enzyme: an exception was thrown inside the derivative of '

// The throw itself is in differentiated code: the derivative of
// checked_log, which f's derivative calls.
__attribute__((noinline)) double checked_log(double x) {
  if (!(x > 0))
    // F-SAME: checked_log(double)' ({{.*}}exception-thrown-in-derivative-is-error.cpp:[[#@LINE+1]]{{(:[0-9]+)?}}); exceptions are not differentiated, see docs/reverse-mode.md
    throw std::domain_error("log of a non-positive number");
  return std::log(x);
}

// x log(x) through memory; throws for x <= 0.
void f(const double *x, double *y) {
  *y = *x * checked_log(*x);
}

// A function with a custom gradient whose reverse throws. The call to it is
// the engine's, without a location, so the report names what it calls.
// G-SAME: g(double)' (a call to 'rev_g(double, double)'); exceptions are not differentiated, see docs/reverse-mode.md
double g(double x) { return x * x; }
double aug_g(double x) { return x * x; }
double rev_g(double x, double dret) {
  if (dret != 0)
    throw std::runtime_error("no reverse today");
  return 2 * x * dret;
}
void *__enzyme_register_gradient_g[3] = {(void *)g, (void *)aug_g,
                                         (void *)rev_g};
void h(const double *x, double *y) { *y = g(*x) + 1; }

// CHECK-NOT: caught
// NONE: derivative 1

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "reverse";
  bool valid = !strcmp(mode, "none");
  double x = valid ? 1.0 : -1.0, dx = 0, y = 0, dy = 1;
  try {
    if (!strcmp(mode, "reverse") || valid) {
      __enzyme_autodiff((void *)f, enzyme_dup, &x, &dx, enzyme_dup, &y, &dy);
    } else if (!strcmp(mode, "forward")) {
      dx = 1;
      __enzyme_fwddiff((void *)f, enzyme_dup, &x, &dx, enzyme_dup, &y, &dy);
    } else if (!strcmp(mode, "augment")) {
      void *tape = __enzyme_augmentfwd((void *)f, enzyme_dup, &x, &dx,
                                       enzyme_dup, &y, &dy);
      __enzyme_reverse((void *)f, enzyme_dup, &x, &dx, enzyme_dup, &y, &dy,
                       tape);
    } else {
      x = 1.0;
      void *tape = __enzyme_augmentfwd((void *)h, enzyme_dup, &x, &dx,
                                       enzyme_dup, &y, &dy);
      std::printf("augmented\n");
      __enzyme_reverse((void *)h, enzyme_dup, &x, &dx, enzyme_dup, &y, &dy,
                       tape);
    }
  } catch (const std::exception &e) {
    std::printf("caught: %s\n", e.what());
    return 0;
  }
  std::printf("derivative %g\n", dx);
  return 0;
}
