/* Asks for the gradient of chain_energy, defined in cross-tu-energy.c. */
#include "check.h"

void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

double chain_energy(const double *x, int n);

static double energy_v(const double *x, void *ctx) { return chain_energy(x, *(int *)ctx); }

int main(void) {
  enum { N = 5 };
  double x[N] = {0.3, -0.8, 1.1, 0.4, -1.5}, dx[N] = {0};
  __enzyme_autodiff((void *)chain_energy, enzyme_dup, x, dx, enzyme_const, N);
  double e[N] = {x[0]};
  for (int i = 1; i < N; i++)
    e[i] = 0;
  for (int i = 0; i + 1 < N; i++) {
    double a = x[i], b = x[i + 1];
    e[i] += 2 * (a - b) + 0.1 * cos(a * b) * b;
    e[i + 1] += -2 * (a - b) + 0.1 * cos(a * b) * a;
  }
  int n = N;
  for (int i = 0; i < N; i++)
    check_grad("d/dx_i", dx[i], e[i], fd_partial(energy_v, x, N, i, &n));
  return check_done();
}
