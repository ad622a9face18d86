//===- logsumexp.hpp - Stable log-sum-exp shared by objectives ------------===//
//
// log(sum exp(v)) computed after subtracting the maximum, as GMM and LSTM
// define it; a template over the number type like the objectives.
//
//===----------------------------------------------------------------------===//

#ifndef ENZYME_BENCH_LOGSUMEXP_HPP
#define ENZYME_BENCH_LOGSUMEXP_HPP

#include <cmath>

namespace bench {

template <class T> T logsumexp(const T *V, int N) {
  T Max = V[0];
  for (int I = 1; I < N; ++I)
    if (V[I] > Max)
      Max = V[I];
  T Sum = 0.0;
  for (int I = 0; I < N; ++I)
    Sum += exp(V[I] - Max);
  return log(Sum) + Max;
}

} // namespace bench

#endif // ENZYME_BENCH_LOGSUMEXP_HPP
