// A request whose callee lives in another file is served at the -fenzyme
// link; a custom gradient registered here must still be honoured there.
// Nothing refers to a registration, so the link used to drop it and the
// body was differentiated instead, silently (here: 2x instead of the
// registered 3).
// RUN: rm -rf %t && mkdir %t
// RUN: %clang_enzyme -fenzyme -O0 -c %S/Inputs/deferred-registration-helper.c -o %t/h0.o
// RUN: %clang_enzyme -fenzyme -O0 %s %t/h0.o -o %t/O0 -lm && %t/O0
// RUN: %clang_enzyme -fenzyme -O2 -c %S/Inputs/deferred-registration-helper.c -o %t/h2.o
// RUN: %clang_enzyme -fenzyme -O2 %s %t/h2.o -o %t/O2 -lm && %t/O2
// Under AddressSanitizer the registration is padded and gets descriptors of
// its own, which are not registrations.
// RUN: %clang_enzyme -fenzyme -O2 -fsanitize=address,undefined -fno-sanitize-recover=all %s %t/h2.o -o %t/asan -lm && %t/asan
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

double helper_twice(double x); // in the other file

double g(double x) { return x * x; }
double aug_g(double x) { return x * x; }
double rev_g(double x, double dret) { return 3.0 * dret; }
void *__enzyme_register_gradient_g[3] = {(void *)g, (void *)aug_g,
                                         (void *)rev_g};

double f(double x) { return g(x) + helper_twice(x); }

int main(void) {
  double x = 0.8;
  check_close("registered gradient at the link",
              __enzyme_autodiff((void *)f, x), 3.0 + 2.0, RTOL_EXACT,
              ATOL_EXACT);
  return check_done();
}
