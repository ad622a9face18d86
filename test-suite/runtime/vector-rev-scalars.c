// Vector reverse mode with active scalars: each by-value active argument
// gets N gradients (one per seed), returned as `struct { double da[N];
// double db[N]; }`; an active result is seeded with 1 in every direction,
// so its directions differ only through the seeds in output shadows. Also
// branches, selects, divisions and a loop whose adjoints are vectors, and
// realloc growth with N shadows.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t -lm && %t
#include "Inputs/check.h"
#include <stdlib.h>

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out,
    enzyme_width;

typedef struct {
  double da[3];
  double db[3];
} grads3;
grads3 __enzyme_autodiff(void *, ...);
typedef struct {
  double dk[2];
} grads2;
grads2 __enzyme_autodiff_k(void *, ...);
void __enzyme_autodiff_void(void *, ...);
#ifdef ENZYME_RT_SELFTEST
grads2 __enzyme_autodiff_k(void *f, ...) { grads2 r = {{0}}; (void)f; return r; }
void __enzyme_autodiff_void(void *f, ...) { (void)f; }
#endif

/* R^2 -> R^3 through an output array. */
__attribute__((noinline)) void h(double a, double b, double *out) {
  out[0] = a * b;
  out[1] = sin(a) + b * b;
  out[2] = a > b ? a / b : -b / (1.0 + a * a);
}

/* A scalar result plus an output: the result's seed is 1 in both lanes. */
__attribute__((noinline)) double k(double c, const double *x, int n,
                                   double *acc) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double t = x[i] * c;
    s += t > 0 ? t * t : -t;
    acc[0] += x[i] / (c + 2.0);
  }
  return s;
}

/* Grows a buffer with realloc while filling it. */
__attribute__((noinline)) void grow(const double *x, int n, double *out) {
  double *buf = NULL;
  for (int i = 0; i < n; ++i) {
    buf = realloc(buf, (i + 1) * sizeof(double));
    buf[i] = x[i] * x[i] + (i ? buf[i - 1] : 0.0);
  }
  out[0] = buf[n - 1];
  out[1] = buf[0] * buf[n - 2];
  free(buf);
}

int main(void) {
  for (int pass = 0; pass < 2; ++pass) {
    double a = pass ? 1.7 : 0.6, b = 1.1, out[3];
    double S[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    grads3 g = __enzyme_autodiff((void *)h, enzyme_width, 3, a, b,
                                 enzyme_dupnoneed, out, S[0], S[1], S[2]);
    double J[3][2] = {{b, a},
                      {cos(a), 2 * b},
                      {a > b ? 1 / b : 2 * a * b / ((1 + a * a) * (1 + a * a)),
                       a > b ? -a / (b * b) : -1 / (1 + a * a)}};
    for (int i = 0; i < 3; ++i) {
      check_close("dh_i/da", g.da[i], J[i][0], RTOL_EXACT, ATOL_EXACT);
      check_close("dh_i/db", g.db[i], J[i][1], RTOL_EXACT, ATOL_EXACT);
    }
  }

  {
    double c = 0.8, x[4] = {0.5, -1.5, 2.0, -0.25}, acc = 0;
    double DX[2][4] = {{0}}, DACC[2] = {0.0, 1.0};
    grads2 g = __enzyme_autodiff_k((void *)k, enzyme_width, 2, c, enzyme_dup, x,
                                   DX[0], DX[1], enzyme_const, 4,
                                   enzyme_dup, &acc, &DACC[0], &DACC[1]);
    double dc = 0, dcacc = 0, dx[4], dxacc[4];
    for (int i = 0; i < 4; ++i) {
      double t = x[i] * c;
      dc += t > 0 ? 2 * t * x[i] : -x[i];
      dx[i] = t > 0 ? 2 * t * c : -c;
      dcacc += -x[i] / ((c + 2) * (c + 2));
      dxacc[i] = 1 / (c + 2);
    }
    /* Lane 0: seed 1 on the result only; lane 1: 1 on the result and 1 on
     * acc. */
    check_close("dk/dc lane 0", g.dk[0], dc, RTOL_EXACT, ATOL_EXACT);
    check_close("dk/dc lane 1", g.dk[1], dc + dcacc, RTOL_EXACT, ATOL_EXACT);
    for (int i = 0; i < 4; ++i) {
      check_close("dk/dx lane 0", DX[0][i], dx[i], RTOL_EXACT, ATOL_EXACT);
      check_close("dk/dx lane 1", DX[1][i], dx[i] + dxacc[i], RTOL_EXACT,
                  ATOL_EXACT);
    }
  }

  {
    double x[5] = {0.3, -0.7, 1.2, 0.9, -0.4}, out[2];
    double DX[2][5] = {{0}}, DO[2][2] = {{1, 0}, {0, 1}};
    __enzyme_autodiff_void((void *)grow, enzyme_width, 2, enzyme_dup, x, DX[0],
                           DX[1], enzyme_const, 5, enzyme_dupnoneed, out,
                           DO[0], DO[1]);
    double p = x[0] * x[0];
    for (int i = 1; i < 4; ++i)
      p += x[i] * x[i];
    for (int i = 0; i < 5; ++i) {
      check_close("d out0 / dx", DX[0][i], 2 * x[i], RTOL_EXACT, ATOL_EXACT);
      double d1 = (i == 0 ? 2 * x[0] * p : 0) +
                  (i < 4 ? x[0] * x[0] * 2 * x[i] : 0);
      check_close("d out1 / dx", DX[1][i], d1, RTOL_EXACT, ATOL_EXACT);
    }
  }
  return check_done();
}
