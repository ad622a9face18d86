// Asks, through <enzyme/enzyme>, for the gradient (ReverseWithPrimal, which
// is split mode underneath) and a tangent (Forward) of chain_energy, defined
// in cross-tu-energy.c: all three requests complete at link time.
#include <enzyme/enzyme>
#include "check.h"

extern "C" double chain_energy(const double *x, int n);

static double energy_v(const double *x, void *ctx) { return chain_energy(x, *(int *)ctx); }

int main() {
  enum { N = 5 };
  double x[N] = {0.3, -0.8, 1.1, 0.4, -1.5}, dx[N] = {0};
  double e[N] = {x[0]};
  for (int i = 1; i < N; i++)
    e[i] = 0;
  for (int i = 0; i + 1 < N; i++) {
    double a = x[i], b = x[i + 1];
    e[i] += 2 * (a - b) + 0.1 * cos(a * b) * b;
    e[i + 1] += -2 * (a - b) + 0.1 * cos(a * b) * a;
  }
  int n = N;

  auto r = enzyme::autodiff<enzyme::ReverseWithPrimal>(
      chain_energy, enzyme::Duplicated<const double *>{x, dx}, enzyme::Const{n});
  check_close("primal", enzyme::get<1>(r), chain_energy(x, n), RTOL_EXACT, ATOL_EXACT);
  for (int i = 0; i < N; i++)
    check_grad("d/dx_i", dx[i], e[i], fd_partial(energy_v, x, N, i, &n));

  // The directional derivative along (1, 1, 1, 1, 1) is the sum of the gradient.
  double ones[N] = {1, 1, 1, 1, 1}, sum = 0, sum_fd = 0;
  for (int i = 0; i < N; i++) {
    sum += e[i];
    sum_fd += fd_partial(energy_v, x, N, i, &n);
  }
  auto t = enzyme::autodiff<enzyme::Forward>(
      chain_energy, enzyme::Duplicated<const double *>{x, ones}, enzyme::Const{n});
  check_grad("tangent", enzyme::get<0>(t), sum, sum_fd);
  return check_done();
}
