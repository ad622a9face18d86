// <enzyme/enzyme>, ReverseWithPrimal: the result is {gradients, f(args)}.
// The function runs once (split mode underneath): a counter it increments
// and an output it overwrites in place show a single run, and the gradient
// is that of the values it started from. Also for an integer and a void
// result (which gives the same shape as Reverse).
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"
#include <enzyme/enzyme>

static int runs = 0;

// Reads x[0], x[1]; overwrites x[0] with its square.
double energy(double *x, double k) {
  ++runs;
  double e = k * x[0] * x[0] * x[1] + log(x[1]);
  x[0] = x[0] * x[0];
  return e;
}

int count_and_scale(double *x, double *y, int n) {
  for (int i = 0; i < n; ++i)
    y[i] = 3 * x[i] * x[i];
  return n + 1;
}

void store_product(double a, double b, double *out) { *out = a * b * b; }

static double energy_v(const double *v, void *ctx) {
  double x[2] = {v[0], v[1]};
  return energy(x, *(double *)ctx);
}
static double energy_k(double k) {
  double x[2] = {0.9, 1.6};
  return energy(x, k);
}

int main() {
  double x[2] = {0.9, 1.6}, dx[2] = {0, 0}, k = 1.4;
  double x0[2] = {x[0], x[1]};
  runs = 0;
  auto r = enzyme::autodiff<enzyme::ReverseWithPrimal>(
      energy, enzyme::Duplicated<double *>{x, dx}, enzyme::Active{k});
  static_assert(enzyme::tuple_size_v<decltype(r)> == 2, "{gradients, primal}");
  check_close("runs once", runs, 1, 0, 0);
  double e = k * x0[0] * x0[0] * x0[1] + log(x0[1]);
  check_close("primal", enzyme::get<1>(r), e, RTOL_EXACT, ATOL_EXACT);
  check_close("x[0] overwritten", x[0], x0[0] * x0[0], RTOL_EXACT, ATOL_EXACT);
  check_grad("d/dk", enzyme::get<0>(enzyme::get<0>(r)), x0[0] * x0[0] * x0[1],
             fd_diff1(energy_k, k));
  check_grad("d/dx0", dx[0], 2 * k * x0[0] * x0[1],
             fd_partial(energy_v, x0, 2, 0, &k));
  check_grad("d/dx1", dx[1], k * x0[0] * x0[0] + 1 / x0[1],
             fd_partial(energy_v, x0, 2, 1, &k));

  // Structured bindings on the whole result.
  double y[2] = {0.9, 1.6}, dy[2] = {0, 0};
  auto [grads, value] = enzyme::autodiff<enzyme::ReverseWithPrimal>(
      energy, enzyme::Duplicated<double *>{y, dy}, enzyme::Active{k});
  check_close("primal (binding)", value, e, RTOL_EXACT, ATOL_EXACT);
  check_close("d/dk (binding)", enzyme::get<0>(grads), x0[0] * x0[0] * x0[1],
              RTOL_EXACT, ATOL_EXACT);

  // An integer result: no seed, the primal is returned as is.
  double in[3] = {0.5, -1.0, 2.0}, din[3] = {0, 0, 0};
  double out[3] = {0, 0, 0}, dout[3] = {1, 0, 2};
  auto ri = enzyme::autodiff<enzyme::ReverseWithPrimal>(
      count_and_scale, enzyme::Duplicated<double *>{in, din},
      enzyme::Duplicated<double *>{out, dout}, enzyme::Const{3});
  check_close("int primal", enzyme::get<1>(ri), 4, 0, 0);
  check_close("int: out[2]", out[2], 12, RTOL_EXACT, ATOL_EXACT);
  check_close("int: d/din0", din[0], 1 * 6 * in[0], RTOL_EXACT, ATOL_EXACT);
  check_close("int: d/din1", din[1], 0, RTOL_EXACT, ATOL_EXACT);
  check_close("int: d/din2", din[2], 2 * 6 * in[2], RTOL_EXACT, ATOL_EXACT);

  // A void function: the shape of Reverse.
  double o = 0, dout1 = 1;
  auto rv = enzyme::autodiff<enzyme::ReverseWithPrimal>(
      store_product, enzyme::Active{2.0}, enzyme::Active{-0.5},
      enzyme::Duplicated<double *>{&o, &dout1});
  static_assert(enzyme::tuple_size_v<decltype(rv)> == 1,
                "void: gradients only");
  check_close("void: d/da", enzyme::get<0>(enzyme::get<0>(rv)), 0.25,
              RTOL_EXACT, ATOL_EXACT);
  check_close("void: d/db", enzyme::get<1>(enzyme::get<0>(rv)), -2.0,
              RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
