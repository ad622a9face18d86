// Loads and stores through dup pointers, including reading back an output
// that was just stored.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

void __enzyme_autodiff(void *, ...);
extern int enzyme_dup;

void f(const double *x, double *y) {
  double a = x[0], b = x[1];
  y[0] = a * b;
  y[1] = a + 3 * b;
  y[2] = y[0] * y[1];
}

/* The seeds below are all 1: the gradient of y0 + y1 + y2. */
static double sum_y(const double *x, void *ctx) {
  double y[3];
  (void)ctx;
  f(x, y);
  return y[0] + y[1] + y[2];
}

int main(void) {
  double x[2] = {1.3, -0.6}, dx[2] = {0, 0};
  double y[3] = {0, 0, 0}, dy[3] = {1, 1, 1};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy);
  double a = x[0], b = x[1], y0 = a * b, y1 = a + 3 * b;
  /* Adjoints of y0 and y1: their own seed plus their use in y2. */
  double ay0 = 1 + y1, ay1 = 1 + y0;
  check_grad("d/dx0", dx[0], ay0 * b + ay1, fd_partial(sum_y, x, 2, 0, 0));
  check_grad("d/dx1", dx[1], ay0 * a + 3 * ay1, fd_partial(sum_y, x, 2, 1, 0));
  check_close("y2 primal", y[2], y0 * y1, RTOL_EXACT, ATOL_EXACT);
  for (int i = 0; i < 3; i++)
    check_close("dy_i consumed", dy[i], 0.0, 0.0, 0.0);
  return check_done();
}
