// Vector reverse mode (enzyme_width, N in __enzyme_autodiff): N seeds in the
// N shadows of the outputs give N rows of the Jacobian in one sweep. Rows
// are checked against one scalar reverse sweep per output and against
// central finite differences. g allocates scratch memory, loops, copies
// with memcpy and calls a helper, so heap shadows, loop caches, memcpy
// adjoints and callee pairs all run with N lanes.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t -lm && %t
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_width,
    enzyme_dupv;
void __enzyme_autodiff(void *, ...);
#ifdef ENZYME_RT_SELFTEST
int enzyme_dupv;
#endif

enum { IN = 5, OUT = 3 };

__attribute__((noinline)) static double weigh(const double *v, int n,
                                              double w) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += w * v[i] * v[i];
  return s;
}

/* y = g(x): a small nonlinear map from R^5 to R^3. */
static void g(const double *x, double *y) {
  double *t = malloc(IN * sizeof(double));
  memcpy(t, x, IN * sizeof(double));
  for (int i = 1; i < IN; ++i)
    t[i] = t[i] * t[i - 1] + sin(t[i]);
  double s = weigh(x, IN, 0.25);
  y[0] = x[0] * x[1] + sin(x[2]) * x[4] + t[IN - 1];
  y[1] = exp(-s) + x[3] / (1.0 + x[0] * x[0]);
  y[2] = sqrt(s) * cos(x[1] - x[3]) * t[2];
  free(t);
}

static double g_out(const double *x, void *ctx) {
  double y[OUT];
  g(x, y);
  return y[*(int *)ctx];
}

int main(void) {
  double x[IN] = {0.4, -0.9, 1.3, 0.2, -1.1};
  double y[OUT];

  /* All three rows at once: N separate shadow pointers. */
  double DX[OUT][IN] = {{0}}, DY[OUT][OUT] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  __enzyme_autodiff((void *)g, enzyme_width, 3, enzyme_dup, x, DX[0], DX[1],
                    DX[2], enzyme_dupnoneed, y, DY[0], DY[1], DY[2]);

  /* The same with one block per argument and a byte stride. */
  double SX[OUT][IN] = {{0}}, SY[OUT][OUT] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  __enzyme_autodiff((void *)g, enzyme_width, 3, enzyme_dupv, sizeof SX[0], x,
                    SX, enzyme_dupv, sizeof SY[0], y, SY);

  for (int i = 0; i < OUT; ++i) {
    /* One scalar sweep for row i. */
    double dx[IN] = {0}, yr[OUT], dy[OUT] = {0};
    dy[i] = 1.0;
    __enzyme_autodiff((void *)g, enzyme_dup, x, dx, enzyme_dup, yr, dy);
    for (int j = 0; j < IN; ++j) {
      check_close("row from width-3 sweep = scalar sweep", DX[i][j], dx[j],
                  RTOL_EXACT, ATOL_EXACT);
      check_close("strided shadows = separate shadows", SX[i][j], DX[i][j],
                  RTOL_EXACT, ATOL_EXACT);
      check_fd("row vs finite difference", DX[i][j],
               fd_partial(g_out, x, IN, j, &i));
    }
    for (int k = 0; k < OUT; ++k)
      check_close("output shadows are cleared", DY[i][k], 0.0, 0, 0);
  }
  return check_done();
}
