// Forward mode through vector code: insertelement / extractelement,
// element-wise arithmetic and shufflevector of active vectors (clang's
// vector extensions, kept as vectors at -O0).
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_fwddiff(void *, ...);

typedef double v2 __attribute__((ext_vector_type(2)));
typedef double v4 __attribute__((ext_vector_type(4)));

static double f(double x, double y) {
  v2 a = {x, y};
  v2 sq = a * a; /* separate statements: no vector fmuladd, which has no
                    rule yet */
  v2 b = sq + (v2){y, 2.0};
  v4 c = __builtin_shufflevector(a, b, 3, 0, 2, 1); /* b1 x b0 y */
  v4 d = c * (v4){1.0, x, 0.5, y};
  return d[0] + d[1] * d[2] - d[3];
}

static double f_x(double x) { return f(x, -0.6); }
static double f_y(double y) { return f(1.3, y); }

int main(void) {
  double x = 1.3, y = -0.6;
  double tx = __enzyme_fwddiff((void *)f, x, 1.0, y, 0.0);
  double ty = __enzyme_fwddiff((void *)f, x, 0.0, y, 1.0);
  /* f = (y^2 + 2) + x^2 * (x^2 + y) / 2 - y^2 */
  check_grad("d/dx", tx, 2 * x * x * x + x * y, fd_diff1(f_x, x));
  check_grad("d/dy", ty, 0.5 * x * x, fd_diff1(f_y, y));
  return check_done();
}
