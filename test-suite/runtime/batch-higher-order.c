// __enzyme_batch inside differentiated code, and a batched function that
// holds a request itself: the inner request is served first (RequestOrder),
// so the gradient of a function that batches is the sum of its lanes'
// derivatives, and each lane of a batch of gradients is a gradient.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_width, enzyme_vector, enzyme_scalar;
typedef struct { double d[2]; } d2;
d2 __enzyme_batch(void *, ...);
double __enzyme_autodiff(void *, ...);

static double sq_sin(double x) { return x * sin(x); }

// g(x) = sq_sin(x) + sq_sin(2x), evaluated as a batch of two lanes.
static double g(double x) {
  d2 r = __enzyme_batch((void *)sq_sin, enzyme_width, 2, enzyme_vector, x,
                        2 * x);
  return r.d[0] + r.d[1];
}
static double g_direct(double x) { return sq_sin(x) + sq_sin(2 * x); }

// The derivative of sq_sin, a lane of a batch below.
static double dsq_sin(double x) { return __enzyme_autodiff((void *)sq_sin, x); }
static double dsq_sin_exact(double x) { return sin(x) + x * cos(x); }

int main(void) {
  double x = 0.7;
  double dg = __enzyme_autodiff((void *)g, x);
  check_grad("d/dx of a batch", dg, dsq_sin_exact(x) + 2 * dsq_sin_exact(2 * x),
             fd_diff1(g_direct, x));

  d2 lanes = __enzyme_batch((void *)dsq_sin, enzyme_width, 2, 0.3, -1.2);
  check_close("batch of gradients, lane 0", lanes.d[0], dsq_sin_exact(0.3),
              RTOL_EXACT, ATOL_EXACT);
  check_close("batch of gradients, lane 1", lanes.d[1], dsq_sin_exact(-1.2),
              RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
