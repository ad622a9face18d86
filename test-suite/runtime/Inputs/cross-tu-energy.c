/* The differentiated function of the cross-TU tests: it lives in its own
 * translation unit (and, in one test, in a static library), so the gradient
 * requested in cross-tu-main.c can only be completed at link time. */
#include <math.h>

static double pair(double a, double b) {
  double d = a - b;
  return d * d + 0.1 * sin(a * b);
}

double chain_energy(const double *x, int n) {
  double s = 0.5 * x[0] * x[0];
  for (int i = 0; i + 1 < n; i++)
    s += pair(x[i], x[i + 1]);
  return s;
}
