//===- spmv.hpp - Repeated sparse matrix-vector products with tanh -------===//
//
// A random sparse N x N matrix A in CSR form (about 8 nonzeros per row)
// drives K iterations of
//
//   x_{k+1} = tanh(A x_k),
//
// and the loss is L = sum_i x_K[i]^2, differentiated with respect to the
// starting vector x_0 and the nonzero values of A.
//
// Stresses: indirect (gathered) reads through the column indices, whose
// adjoint is a scattered accumulation into the shadow of x; the same
// matrix values used in every iteration, so their adjoints accumulate over
// the whole run; tanh on every row.
//
// No input file: --input is a size spec "n<rows>_k<iterations>", e.g.
// n100000_k5. The data come from a fixed linear congruential generator.
//
//===----------------------------------------------------------------------===//

#ifndef ENZYME_BENCH_SPMV_HPP
#define ENZYME_BENCH_SPMV_HPP

#include "../common/bench.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace spmv {

struct Input {
  int N = 0, Iterations = 0;
  std::vector<int> RowStart;  // N + 1 offsets into Column and Values
  std::vector<int> Column;    // column of each nonzero (constant)
  std::vector<double> Values; // nonzero values of A (active)
  std::vector<double> X0;     // starting vector (active)
};

inline Input make(const std::string &Spec) {
  long V[2];
  bench::parse_spec(Spec, "nk", V);
  Input In;
  In.N = (int)V[0];
  In.Iterations = (int)V[1];
  bench::Lcg R(0x5a3cu);
  In.RowStart.push_back(0);
  for (int Row = 0; Row < In.N; ++Row) {
    // 6 to 10 nonzeros, at distinct random columns, kept sorted.
    int Count = std::min(In.N, 6 + (int)(5 * R.uniform()));
    std::vector<int> Cols;
    while ((int)Cols.size() < Count) {
      int C = (int)(In.N * R.uniform());
      if (std::find(Cols.begin(), Cols.end(), C) == Cols.end())
        Cols.push_back(C);
    }
    std::sort(Cols.begin(), Cols.end());
    // Row sums of |A| near 1.5 keep tanh away from saturation.
    for (int C : Cols) {
      In.Column.push_back(C);
      In.Values.push_back((2 * R.uniform() - 1) * 3.0 / Count);
    }
    In.RowStart.push_back((int)In.Column.size());
  }
  In.X0.resize(In.N);
  for (int I = 0; I < In.N; ++I)
    In.X0[I] = 2 * R.uniform() - 1;
  return In;
}

template <class T>
T objective(int N, int Iterations, const int *RowStart, const int *Column,
            const T *Values, const T *X0) {
  T *X = new T[N];
  T *Next = new T[N];
  for (int I = 0; I < N; ++I)
    X[I] = X0[I];

  for (int It = 0; It < Iterations; ++It) {
    for (int Row = 0; Row < N; ++Row) {
      T Sum = 0.0;
      for (int P = RowStart[Row]; P < RowStart[Row + 1]; ++P)
        Sum += Values[P] * X[Column[P]];
      Next[Row] = tanh(Sum);
    }
    T *Swap = X;
    X = Next;
    Next = Swap;
  }

  T Loss = 0.0;
  for (int I = 0; I < N; ++I)
    Loss += X[I] * X[I];

  delete[] X;
  delete[] Next;
  return Loss;
}

} // namespace spmv

#endif // ENZYME_BENCH_SPMV_HPP
