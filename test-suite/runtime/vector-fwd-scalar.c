// Forward vector mode on a scalar function: enzyme_width, N with N tangents
// after each duplicated scalar computes N directional derivatives in one
// call. Widths 2, 4 and 8, results as a struct of N fields, a struct
// wrapping double[N], and {primal, double[N]} with enzyme_primal_return.
// Every lane is checked against scalar forward mode and against finite
// differences of the primal along its direction.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_width, enzyme_primal_return;
double __enzyme_fwddiff(void *, ...);

typedef struct { double dx, dy; } w2;
typedef struct { double d[4]; } w4;
typedef struct { double d[8]; } w8;
typedef struct { double y; double d[4]; } primal_w4;
w2 __enzyme_fwddiff_w2(void *, ...);
w4 __enzyme_fwddiff_w4(void *, ...);
w8 __enzyme_fwddiff_w8(void *, ...);
primal_w4 __enzyme_fwddiff_pw4(void *, ...);

#ifdef ENZYME_RT_SELFTEST
w2 __enzyme_fwddiff_w2(void *f, ...) { w2 r = {0}; (void)f; return r; }
w4 __enzyme_fwddiff_w4(void *f, ...) { w4 r = {{0}}; (void)f; return r; }
w8 __enzyme_fwddiff_w8(void *f, ...) { w8 r = {{0}}; (void)f; return r; }
primal_w4 __enzyme_fwddiff_pw4(void *f, ...) { primal_w4 r = {0}; (void)f; return r; }
#endif

static double f(double x, double y, double z) {
  return x * x * y + sin(y) / (1.0 + z * z) + exp(0.5 * x) * z;
}

/* Analytic partials of f. */
static void grad_f(double x, double y, double z, double g[3]) {
  double q = 1.0 + z * z;
  g[0] = 2 * x * y + 0.5 * exp(0.5 * x) * z;
  g[1] = x * x + cos(y) / q;
  g[2] = -sin(y) * 2 * z / (q * q) + exp(0.5 * x);
}

static const double P[3] = {0.7, -1.3, 0.4};

/* f along direction v at P, for finite differences. */
static const double *dir_;
static double f_along(double t) {
  return f(P[0] + t * dir_[0], P[1] + t * dir_[1], P[2] + t * dir_[2]);
}

static void check_lane(const char *name, int lane, double got, const double v[3]) {
  char buf[96];
  double g[3];
  grad_f(P[0], P[1], P[2], g);
  double analytic = g[0] * v[0] + g[1] * v[1] + g[2] * v[2];
  dir_ = v;
  double fd = fd_diff1(f_along, 0.0);
  snprintf(buf, sizeof buf, "%s lane %d", name, lane);
  check_grad(buf, got, analytic, fd);
  /* Scalar forward mode along the same direction. */
  double scalar = __enzyme_fwddiff((void *)f, enzyme_dup, P[0], v[0], enzyme_dup,
                                   P[1], v[1], enzyme_dup, P[2], v[2]);
  snprintf(buf, sizeof buf, "%s lane %d = scalar forward", name, lane);
  check_close(buf, got, scalar, 1e-14, 1e-15);
}

int main(void) {
  double x = P[0], y = P[1], z = P[2];

  /* Width 2: d/dx and d/dy (Enzyme's {dx, dy} example shape); z constant. */
  w2 r2 = __enzyme_fwddiff_w2((void *)f, enzyme_width, 2, x, 1.0, 0.0, y, 0.0,
                              1.0, enzyme_const, z);
  double e0[3] = {1, 0, 0}, e1[3] = {0, 1, 0}, e2[3] = {0, 0, 1};
  check_lane("width 2", 0, r2.dx, e0);
  check_lane("width 2", 1, r2.dy, e1);

  /* Width 4: four directions, one of them zero. */
  double V4[4][3] = {{1, 0, 0}, {0.5, -2, 1}, {0, 0, 0}, {-1, 3, 0.25}};
  w4 r4 = __enzyme_fwddiff_w4((void *)f, enzyme_width, 4,
                              enzyme_dup, x, V4[0][0], V4[1][0], V4[2][0], V4[3][0],
                              enzyme_dup, y, V4[0][1], V4[1][1], V4[2][1], V4[3][1],
                              enzyme_dup, z, V4[0][2], V4[1][2], V4[2][2], V4[3][2]);
  for (int k = 0; k < 4; ++k)
    check_lane("width 4", k, r4.d[k], V4[k]);

  /* Width 8, unmarked scalars (duplicated by default). */
  double V8[8][3];
  for (int k = 0; k < 8; ++k)
    for (int i = 0; i < 3; ++i)
      V8[k][i] = sin(1.0 + k * 3 + i);
  w8 r8 = __enzyme_fwddiff_w8(
      (void *)f, enzyme_width, 8,
      x, V8[0][0], V8[1][0], V8[2][0], V8[3][0], V8[4][0], V8[5][0], V8[6][0], V8[7][0],
      y, V8[0][1], V8[1][1], V8[2][1], V8[3][1], V8[4][1], V8[5][1], V8[6][1], V8[7][1],
      z, V8[0][2], V8[1][2], V8[2][2], V8[3][2], V8[4][2], V8[5][2], V8[6][2], V8[7][2]);
  for (int k = 0; k < 8; ++k)
    check_lane("width 8", k, r8.d[k], V8[k]);

  /* The primal and the tangents together. */
  primal_w4 p4 = __enzyme_fwddiff_pw4((void *)f, enzyme_width, 4, enzyme_primal_return,
                                      x, V4[0][0], V4[1][0], V4[2][0], V4[3][0],
                                      y, V4[0][1], V4[1][1], V4[2][1], V4[3][1],
                                      z, V4[0][2], V4[1][2], V4[2][2], V4[3][2]);
  check_close("primal return", p4.y, f(x, y, z), 1e-15, 0);
  for (int k = 0; k < 4; ++k)
    check_lane("primal return width 4", k, p4.d[k], V4[k]);
  (void)e2;
  return check_done();
}
