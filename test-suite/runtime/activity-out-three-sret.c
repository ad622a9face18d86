// Three active scalars: the struct of gradients is returned through a hidden
// sret pointer.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O3 %s -o %t -lm && %t
#include "Inputs/check.h"

typedef struct { double dx, dy, dz; } grad3;
grad3 __enzyme_autodiff(void *, ...);
extern int enzyme_out;

double f(double x, double y, double z) { return x * y * z + x / z; }

static double f_v(const double *v, void *ctx) { (void)ctx; return f(v[0], v[1], v[2]); }

int main(void) {
  double v[3] = {0.6, -1.2, 2.5};
  double x = v[0], y = v[1], z = v[2];
  grad3 g = __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_out, y, enzyme_out, z);
  check_grad("d/dx", g.dx, y * z + 1 / z, fd_partial(f_v, v, 3, 0, 0));
  check_grad("d/dy", g.dy, x * z, fd_partial(f_v, v, 3, 1, 0));
  check_grad("d/dz", g.dz, x * y - x / (z * z), fd_partial(f_v, v, 3, 2, 0));
  return check_done();
}
