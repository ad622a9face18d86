// A Jacobian two ways: by columns with forward vector mode (width 4, so the
// 5 inputs take ceil(5/4) = 2 sweeps, the second with 3 zero directions),
// and by rows with reverse mode (one sweep per output). The two agree with
// each other and with finite differences.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_width, enzyme_dupv;
void __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff(void *, ...);
#ifdef ENZYME_RT_SELFTEST
int enzyme_dupv;
#endif

enum { IN = 5, OUT = 3, W = 4 };

/* y = g(x): a small nonlinear map from R^5 to R^3. */
static void g(const double *x, double *y) {
  double s = 0;
  for (int i = 0; i < IN; ++i)
    s += x[i] * x[i];
  y[0] = x[0] * x[1] + sin(x[2]) * x[4];
  y[1] = exp(-s / 4) + x[3] / (1.0 + x[0] * x[0]);
  y[2] = sqrt(s) * cos(x[1] - x[3]);
}

static double g_out(const double *x, void *ctx) {
  double y[OUT];
  g(x, y);
  return y[*(int *)ctx];
}

int main(void) {
  double x[IN] = {0.4, -0.9, 1.3, 0.2, -1.1};
  double y[OUT];
  double Jf[OUT][IN], Jr[OUT][IN];

  /* Columns: sweep c covers inputs 4c .. 4c + 3 (unit directions). */
  for (int c0 = 0; c0 < IN; c0 += W) {
    double V[W][IN] = {{0}}, DY[W][OUT];
    for (int k = 0; k < W && c0 + k < IN; ++k)
      V[k][c0 + k] = 1.0;
    __enzyme_fwddiff((void *)g, enzyme_width, W, enzyme_dupv, sizeof V[0], x, V,
                     enzyme_dupv, sizeof DY[0], y, DY);
    for (int k = 0; k < W; ++k)
      for (int i = 0; i < OUT; ++i) {
        if (c0 + k < IN)
          Jf[i][c0 + k] = DY[k][i];
        else
          check_close("zero direction gives zero", DY[k][i], 0.0, 0, 0);
      }
  }

  /* Rows: one reverse sweep per output. */
  for (int i = 0; i < OUT; ++i) {
    double dx[IN] = {0}, yr[OUT], dy[OUT] = {0};
    dy[i] = 1.0;
    __enzyme_autodiff((void *)g, enzyme_dup, x, dx, enzyme_dup, yr, dy);
    for (int j = 0; j < IN; ++j)
      Jr[i][j] = dx[j];
  }

  for (int i = 0; i < OUT; ++i)
    for (int j = 0; j < IN; ++j) {
      char buf[64];
      snprintf(buf, sizeof buf, "J[%d][%d] columns = rows", i, j);
      check_close(buf, Jf[i][j], Jr[i][j], 1e-12, 1e-13);
      snprintf(buf, sizeof buf, "J[%d][%d] vs finite difference", i, j);
      check_fd(buf, Jf[i][j], fd_partial(g_out, x, IN, j, &i));
    }
  return check_done();
}
