// __enzyme_function_like: a user's function that behaves like a known math
// function gets that function's derivative rule (its body, a fast
// approximation here, is not differentiated). __enzyme_allocation_like: a
// user's allocator gets a shadow allocation like malloc's.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"
#include <stdlib.h>

double __enzyme_autodiff(void *, ...);

// A truncated series for exp: the derivative of this body is not exp's.
double my_exp(double x) { return 1 + x + x * x / 2 + x * x * x / 6; }
void *__enzyme_function_like[2] = {(void *)my_exp, (void *)"exp"};

static int allocations;
void *pool_alloc(int tag, size_t bytes) { (void)tag; ++allocations; return malloc(bytes); }
void pool_free(void *p) { free(p); }
void *__enzyme_allocation_like[4] = {(void *)pool_alloc, (void *)1,
                                     (void *)"-1", (void *)pool_free};

double g(double x) {
  double *buf = (double *)pool_alloc(7, 3 * sizeof(double));
  for (int i = 0; i < 3; ++i)
    buf[i] = x * (i + 1);
  double s = buf[0] * buf[1] + buf[2];
  pool_free(buf);
  return s + my_exp(x);
}

int main(void) {
  double x = 0.3;
  // d/dx [2x^2 + 3x] + exp'(x) per the rule (= my_exp(x), the value).
  check_close("rule of exp and shadowed pool memory",
              __enzyme_autodiff((void *)g, x), 4 * x + 3 + my_exp(x),
              RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
