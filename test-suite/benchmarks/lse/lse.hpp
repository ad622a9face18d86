//===- lse.hpp - Stable log-sum-exp with a cross-entropy term ------------===//
//
//   f(x) = log(sum_i exp(x_i)) - sum_i p_i x_i
//
// the cross-entropy of softmax(x) against a fixed target distribution p.
// The log-sum-exp is the stable one: a first pass finds the maximum (a
// branch on values), a second sums exp(x_i - max). The target term keeps
// the gradient, softmax(x) - p, from summing to one trivially.
//
// Stresses: long reductions over a large array, a value-dependent branch
// whose result feeds the rest of the computation, exp over every element.
//
// No input file: --input is a size spec "n<count>", e.g. n1000000. The data
// come from a fixed linear congruential generator.
//
//===----------------------------------------------------------------------===//

#ifndef ENZYME_BENCH_LSE_HPP
#define ENZYME_BENCH_LSE_HPP

#include "../common/bench.hpp"

#include <cctype>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace lse {

struct Input {
  int N = 0;
  std::vector<double> X; // the logits (active)
  std::vector<double> P; // the target distribution (constant)
};

inline Input make(const std::string &Spec) {
  long N;
  bench::parse_spec(Spec, "n", &N);
  Input In;
  In.N = (int)N;
  In.X.resize(N);
  In.P.resize(N);
  bench::Lcg R(0x5eed1u);
  double Sum = 0;
  for (long I = 0; I < N; ++I) {
    In.X[I] = 8 * R.uniform() - 4;
    In.P[I] = R.uniform();
    Sum += In.P[I];
  }
  for (long I = 0; I < N; ++I)
    In.P[I] /= Sum;
  return In;
}

template <class T> T objective(int N, const T *X, const double *P) {
  T Max = X[0];
  for (int I = 1; I < N; ++I)
    if (X[I] > Max)
      Max = X[I];
  T Sum = 0.0;
  for (int I = 0; I < N; ++I)
    Sum += exp(X[I] - Max);
  T Cross = 0.0;
  for (int I = 0; I < N; ++I)
    Cross += P[I] * X[I];
  return log(Sum) + Max - Cross;
}

} // namespace lse

#endif // ENZYME_BENCH_LSE_HPP
