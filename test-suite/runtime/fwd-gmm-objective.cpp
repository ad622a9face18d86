// Forward mode of a real objective: the GMM log-likelihood of the benchmark
// suite (loops, heap arrays, logsumexp, lgamma), with the tangent along a
// direction in (alphas, means, icf) checked against reverse mode of the
// same function (<grad, v>) and against a central finite difference.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "../benchmarks/gmm/gmm.hpp"
#include "Inputs/check.h"

extern "C" {
extern int enzyme_const, enzyme_dup;
double __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff(void *, ...);
}

enum { D = 3, K = 2, N = 6, P = K + K * D + K * D * (D + 1) / 2 };

static double X[N * D];

static double objective_flat(const double *theta, void *) {
  return gmm::objective<double>(D, K, N, theta, theta + K, theta + K + K * D, X, 1.0, 0);
}

int main() {
  double theta[P], v[P], g[P] = {0};
  for (int i = 0; i < P; ++i) {
    theta[i] = 0.3 * sin(1.7 * i + 0.2);
    v[i] = cos(0.9 * i);
  }
  for (int i = 0; i < N * D; ++i)
    X[i] = 0.5 * cos(2.3 * i);
  double t = __enzyme_fwddiff((void *)gmm::objective<double>, enzyme_const, D, enzyme_const, K,
                              enzyme_const, N, enzyme_dup, theta, v, enzyme_dup, theta + K,
                              v + K, enzyme_dup, theta + K + K * D, v + K + K * D, enzyme_const,
                              X, enzyme_const, 1.0, enzyme_const, 0);
  __enzyme_autodiff((void *)gmm::objective<double>, enzyme_const, D, enzyme_const, K,
                    enzyme_const, N, enzyme_dup, theta, g, enzyme_dup, theta + K, g + K,
                    enzyme_dup, theta + K + K * D, g + K + K * D, enzyme_const, X,
                    enzyme_const, 1.0, enzyme_const, 0);
  double dot = 0, fd = 0;
  for (int i = 0; i < P; ++i) {
    dot += g[i] * v[i];
    fd += fd_partial(objective_flat, theta, P, i, nullptr) * v[i];
  }
  check_close("tangent vs <grad, v>", t, dot, 1e-10, 1e-12);
  check_fd("tangent vs finite differences", t, fd);
  return check_done();
}
