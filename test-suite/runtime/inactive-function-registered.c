// Functions listed in __enzyme_inactivefn contribute no derivative, even
// though their results depend on active values (a logging helper, a
// stop-gradient). Not marking them noinline: the registration keeps them
// calls at -O2.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_autodiff(void *, ...);

double stop_gradient(double x) { return x; }
double scaled(double x) { return 10 * x; }
void *__enzyme_inactivefn[2] = {(void *)stop_gradient, (void *)scaled};

double f(double x) { return x * stop_gradient(x) + scaled(x) * x; }

int main(void) {
  double x = 1.7;
  // d/dx [x * c1 + c2 * x] with c1 = x and c2 = 10x held constant.
  check_close("inactive calls carry no derivative",
              __enzyme_autodiff((void *)f, x), x + 10 * x, RTOL_EXACT,
              ATOL_EXACT);
  return check_done();
}
