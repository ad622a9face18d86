// Classical RK4 over 10^4 steps for a damped pendulum
// theta'' = -w2 sin(theta) - c theta'; the gradient of the final angle with
// respect to the initial state and w2 is checked against finite differences.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

typedef struct { double dth, dom, dw2; } grad3;
grad3 __enzyme_autodiff(void *, ...);

enum { N = 10000 };

static void rhs(const double *s, double w2, double *ds) {
  ds[0] = s[1];
  ds[1] = -w2 * sin(s[0]) - 0.1 * s[1];
}

double pendulum(double theta0, double omega0, double w2) {
  double s[2] = {theta0, omega0}, k1[2], k2[2], k3[2], k4[2], t[2];
  const double h = 1e-3;
  for (int i = 0; i < N; i++) {
    rhs(s, w2, k1);
    for (int j = 0; j < 2; j++) t[j] = s[j] + 0.5 * h * k1[j];
    rhs(t, w2, k2);
    for (int j = 0; j < 2; j++) t[j] = s[j] + 0.5 * h * k2[j];
    rhs(t, w2, k3);
    for (int j = 0; j < 2; j++) t[j] = s[j] + h * k3[j];
    rhs(t, w2, k4);
    for (int j = 0; j < 2; j++)
      s[j] += h / 6 * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
  }
  return s[0];
}

static double pend_v(const double *v, void *ctx) {
  (void)ctx;
  return pendulum(v[0], v[1], v[2]);
}

int main(void) {
  double v[3] = {0.8, -0.3, 4.0};
  grad3 g = __enzyme_autodiff((void *)pendulum, v[0], v[1], v[2]);
  check_fd("d/dtheta0", g.dth, fd_partial(pend_v, v, 3, 0, 0));
  check_fd("d/domega0", g.dom, fd_partial(pend_v, v, 3, 1, 0));
  check_fd("d/dw2", g.dw2, fd_partial(pend_v, v, 3, 2, 0));
  return check_done();
}
