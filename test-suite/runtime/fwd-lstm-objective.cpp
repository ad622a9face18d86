// Forward mode of the LSTM loss of the benchmark suite (state copied and
// updated in place, sigmoid/tanh, logsumexp, heap arrays): the tangent along
// a direction in (main, extra) is checked against reverse mode of the same
// function (<grad, v>) and against a central finite difference.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "../benchmarks/lstm/lstm.hpp"
#include "Inputs/check.h"

extern "C" {
extern int enzyme_const, enzyme_dup;
double __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff(void *, ...);
}

enum { L = 2, C = 4, B = 3, NMain = 2 * L * 4 * B, NExtra = 3 * B, P = NMain + NExtra };

static double State[2 * L * B], Seq[C * B];

static double objective_flat(const double *theta, void *) {
  return lstm::objective<double>(L, C, B, theta, theta + NMain, State, Seq);
}

int main() {
  double theta[P], v[P], g[P] = {0};
  for (int i = 0; i < P; ++i) {
    theta[i] = 0.4 * sin(1.3 * i + 0.5);
    v[i] = cos(0.7 * i);
  }
  for (int i = 0; i < 2 * L * B; ++i)
    State[i] = 0.2 * cos(1.1 * i);
  for (int i = 0; i < C * B; ++i)
    Seq[i] = 0.6 * sin(0.8 * i);
  double t = __enzyme_fwddiff((void *)lstm::objective<double>, enzyme_const, L, enzyme_const, C,
                              enzyme_const, B, enzyme_dup, theta, v, enzyme_dup, theta + NMain,
                              v + NMain, enzyme_const, State, enzyme_const, Seq);
  __enzyme_autodiff((void *)lstm::objective<double>, enzyme_const, L, enzyme_const, C,
                    enzyme_const, B, enzyme_dup, theta, g, enzyme_dup, theta + NMain, g + NMain,
                    enzyme_const, State, enzyme_const, Seq);
  double dot = 0, fd = 0;
  for (int i = 0; i < P; ++i) {
    dot += g[i] * v[i];
    fd += fd_partial(objective_flat, theta, P, i, nullptr) * v[i];
  }
  check_close("tangent vs <grad, v>", t, dot, 1e-10, 1e-12);
  check_fd("tangent vs finite differences", t, fd);
  return check_done();
}
