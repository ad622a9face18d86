// Forward vector mode on functions of arrays: every duplicated pointer has
// N shadows, given one by one (enzyme_dup, p, dp1, ..., dpN) or as one block
// with a byte stride (enzyme_dupv, STRIDE, p, dp: shadow k at dp + k*STRIDE).
// The function has a loop whose trip count is an argument, a call of a
// helper that is not inlined, and a local array. Each lane's output shadow
// is checked against scalar forward mode and finite differences (J v_k).
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_width, enzyme_dupv;
void __enzyme_fwddiff(void *, ...);
#ifdef ENZYME_RT_SELFTEST
int enzyme_dupv;
#endif

enum { N = 6 };

__attribute__((noinline)) static double smooth(double a, double b) {
  return a * tanh(b) + log(1.0 + a * a);
}

/* y[i] = smooth(x[i], x[(i+1) % n]) * w[i] + prefix sum of x^2. */
static void f(const double *x, const double *w, double *y, int n) {
  double t[N];
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += x[i] * x[i];
    t[i] = s;
  }
  for (int i = 0; i < n; ++i)
    y[i] = smooth(x[i], x[(i + 1) % n]) * w[i] + sqrt(t[i]);
}

static const double X[N] = {0.3, -1.2, 0.8, 2.0, -0.4, 1.1};
static const double W[N] = {1.5, 0.5, -1.0, 2.0, 0.25, -0.75};

static double f_out(const double *x, void *ctx) {
  double y[N];
  f(x, W, y, N);
  return y[*(int *)ctx];
}

/* Checks dy (lane k) = J v against finite differences and scalar forward. */
static void check_lane(const char *name, int k, const double *v, const double *dy) {
  double x[N], dx[N], y[N], dys[N];
  memcpy(x, X, sizeof x);
  memcpy(dx, v, sizeof dx);
  __enzyme_fwddiff((void *)f, enzyme_dup, x, dx, enzyme_const, W, enzyme_dup, y, dys, N);
  for (int i = 0; i < N; ++i) {
    char buf[96];
    double jv = 0;
    for (int j = 0; j < N; ++j)
      jv += fd_partial(f_out, x, N, j, &i) * v[j];
    snprintf(buf, sizeof buf, "%s lane %d dy[%d] = J v", name, k, i);
    check_fd(buf, dy[i], jv);
    snprintf(buf, sizeof buf, "%s lane %d dy[%d] = scalar forward", name, k, i);
    check_close(buf, dy[i], dys[i], 1e-13, 1e-14);
  }
}

static double dir(int k, int j) { return cos(0.7 * k + 1.3 * j) + (k == j); }

int main(void) {
  double x[N], y[N], y0[N];
  memcpy(x, X, sizeof x);
  f(x, W, y0, N);

  /* Width 2: two shadows per pointer, one by one. */
  {
    double v0[N], v1[N], dy0[N], dy1[N];
    for (int j = 0; j < N; ++j) {
      v0[j] = dir(0, j);
      v1[j] = dir(1, j);
      dy0[j] = dy1[j] = 1e300; /* overwritten */
    }
    __enzyme_fwddiff((void *)f, enzyme_width, 2, enzyme_dup, x, v0, v1, enzyme_const, W,
                     enzyme_dup, y, dy0, dy1, N);
    for (int i = 0; i < N; ++i)
      check_close("primal y", y[i], y0[i], 1e-15, 0);
    check_lane("width 2", 0, v0, dy0);
    check_lane("width 2", 1, v1, dy1);
  }

  /* Width 4 with enzyme_dupv: the shadows are the rows of one block. */
  {
    double V[4][N], DY[4][N];
    for (int k = 0; k < 4; ++k)
      for (int j = 0; j < N; ++j)
        V[k][j] = dir(k, j);
    __enzyme_fwddiff((void *)f, enzyme_width, 4, enzyme_dupv, sizeof V[0], x, V,
                     enzyme_const, W, enzyme_dupv, sizeof DY[0], y, DY, N);
    for (int k = 0; k < 4; ++k)
      check_lane("width 4 dupv", k, V[k], DY[k]);
  }

  /* Width 8: the 8 rows of one block. */
  {
    double V[8][N], DY[8][N];
    for (int k = 0; k < 8; ++k)
      for (int j = 0; j < N; ++j)
        V[k][j] = dir(k, j);
    __enzyme_fwddiff((void *)f, enzyme_width, 8, enzyme_dupv, sizeof V[0], x, V,
                     enzyme_const, W, enzyme_dupv, sizeof DY[0], y, DY, N);
    for (int k = 0; k < 8; ++k)
      check_lane("width 8 dupv", k, V[k], DY[k]);
  }
  return check_done();
}
