// memcpy, memmove and memset in forward mode are mirrored on the shadows:
// a copy copies the tangents (and the shadows of copied pointers), a
// clearing clears them, a copy from memory without derivatives gives zero
// tangents.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const;
void __enzyme_fwddiff(void *, ...);

struct pair {
  double *data;
  double scale;
};

static const double constants[3] = {1.0, 2.0, 3.0};

static void f(const double *x, double *y, struct pair *p) {
  double tmp[6];
  memcpy(tmp, x, 3 * sizeof(double));
  memcpy(tmp + 3, constants, 3 * sizeof(double));
  memmove(tmp + 1, tmp, 3 * sizeof(double)); /* tmp = x0 x0 x1 x2 c1 c2 */
  struct pair q;
  memcpy(&q, p, sizeof q); /* a pointer and a double */
  for (int i = 0; i < 6; ++i)
    y[i] = tmp[i] * tmp[i] * q.scale + q.data[i % 2];
  memset(y + 6, 0, 2 * sizeof(double));
  y[7] += x[0];
}

int main(void) {
  double x[3] = {0.5, -1.5, 2.0}, dx[3] = {1.0, 0.25, -2.0};
  double data[2] = {3.0, 4.0}, ddata[2] = {0.5, -1.0};
  struct pair p = {data, 1.5}, dp = {ddata, 0.75};
  double y[8], dy[8];
  for (int i = 0; i < 8; ++i)
    dy[i] = 99.0; /* every element is overwritten */
  __enzyme_fwddiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_dup, &p, &dp);

  double t[6] = {x[0], x[0], x[1], x[2], 2.0, 3.0};
  double dt[6] = {dx[0], dx[0], dx[1], dx[2], 0.0, 0.0};
  for (int i = 0; i < 6; ++i) {
    double expect = 2 * t[i] * dt[i] * p.scale + t[i] * t[i] * dp.scale + ddata[i % 2];
    check_close("dy", dy[i], expect, 1e-12, 1e-13);
    check_close("y", y[i], t[i] * t[i] * p.scale + data[i % 2], 1e-15, 0);
  }
  check_close("memset clears", dy[6], 0.0, 0, 0);
  check_close("after memset", dy[7], dx[0], 0, 0);
  return check_done();
}
