/* Forward mode of a function defined in another translation unit
 * (cross-tu-energy.c): the request waits for the -fenzyme link. Checked
 * against finite differences and reverse mode (<1, J v> = <J^T 1, v>). */
#include "check.h"

extern int enzyme_dup, enzyme_const;
double __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff(void *, ...);
double chain_energy(const double *x, int n);

enum { N = 5 };
static double energy_ctx(const double *x, void *ctx) { (void)ctx; return chain_energy(x, N); }

int main(void) {
  double x[N] = {0.3, -0.8, 1.1, 0.4, -1.5};
  double v[N] = {1.0, 0.5, -2.0, 0.25, 1.5};
  double t = __enzyme_fwddiff((void *)chain_energy, enzyme_dup, x, v, N);
  double g[N] = {0};
  __enzyme_autodiff((void *)chain_energy, enzyme_dup, x, g, N);
  double fd = 0, rev = 0;
  for (int i = 0; i < N; ++i) {
    fd += fd_partial(energy_ctx, x, N, i, 0) * v[i];
    rev += g[i] * v[i];
  }
  check_fd("cross-TU tangent", t, fd);
  check_close("cross-TU tangent (vs reverse)", t, rev, 1e-12, 1e-13);
  return check_done();
}
