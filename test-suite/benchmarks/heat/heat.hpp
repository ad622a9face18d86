//===- heat.hpp - Explicit 2-D heat equation on a square grid ------------===//
//
// T explicit Euler steps of the heat equation on an N x N grid with the
// 5-point Laplacian:
//
//   u'[i][j] = u[i][j] + a (u[i-1][j] + u[i+1][j] + u[i][j-1] + u[i][j+1]
//                           - 4 u[i][j])
//
// on the interior; the border cells keep their initial values (Dirichlet).
// Two buffers on the heap, swapped after every step. The loss is a weighted
// sum of squares of the final field,
//
//   L = sum_ij w_ij u_T[i][j]^2,
//
// differentiated with respect to the initial field and the diffusion
// coefficient a (a scalar, passed through a pointer so that it has a
// shadow).
//
// Stresses: a stencil over a large array repeated in time (every step reads
// the one before), pointer swapping, and a scalar that every operation
// depends on, whose adjoint is a reduction over the whole run.
//
// No input file: --input is a size spec "n<grid side>_t<steps>", e.g.
// n256_t50. The data come from a fixed linear congruential generator.
//
//===----------------------------------------------------------------------===//

#ifndef ENZYME_BENCH_HEAT_HPP
#define ENZYME_BENCH_HEAT_HPP

#include "../common/bench.hpp"

#include <cctype>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace heat {

struct Input {
  int N = 0, Steps = 0;
  double Alpha = 0.2;         // diffusion coefficient (active)
  std::vector<double> U0;     // initial field, row by row (active)
  std::vector<double> Weight; // loss weights (constant)
};

inline Input make(const std::string &Spec) {
  long V[2];
  bench::parse_spec(Spec, "nt", V);
  Input In;
  In.N = (int)V[0];
  In.Steps = (int)V[1];
  if (In.N < 3) {
    std::fprintf(stderr, "bench: heat needs a grid of at least 3 x 3\n");
    std::exit(2);
  }
  size_t Cells = (size_t)In.N * In.N;
  In.U0.resize(Cells);
  In.Weight.resize(Cells);
  bench::Lcg R(0x4ea7u);
  for (size_t I = 0; I < Cells; ++I) {
    In.U0[I] = 2 * R.uniform() - 1;
    In.Weight[I] = 0.5 + R.uniform();
  }
  return In;
}

template <class T>
T objective(int N, int Steps, const T *Alpha, const T *U0,
            const double *Weight) {
  const size_t Cells = (size_t)N * N;
  T *U = new T[Cells];
  T *Next = new T[Cells];
  for (size_t I = 0; I < Cells; ++I) {
    U[I] = U0[I];
    Next[I] = U0[I];
  }

  const T A = *Alpha;
  for (int Step = 0; Step < Steps; ++Step) {
    for (int I = 1; I + 1 < N; ++I)
      for (int J = 1; J + 1 < N; ++J) {
        size_t C = (size_t)I * N + J;
        Next[C] =
            U[C] + A * (U[C - N] + U[C + N] + U[C - 1] + U[C + 1] - 4.0 * U[C]);
      }
    T *Swap = U;
    U = Next;
    Next = Swap;
  }

  T Loss = 0.0;
  for (size_t I = 0; I < Cells; ++I)
    Loss += Weight[I] * U[I] * U[I];

  delete[] U;
  delete[] Next;
  return Loss;
}

} // namespace heat

#endif // ENZYME_BENCH_HEAT_HPP
