//===- omp.cpp - An OpenMP heat equation and its gradient in parallel -----===//
//
// The 2-D heat equation of heat.hpp (its inputs too), each explicit step a
// `#pragma omp parallel for` over the rows of the grid, and the loss a parallel
// reduction. The gradient with respect to the initial field and the
// diffusion coefficient runs in parallel too (docs/parallel.md):
// scripts/bench runs this program with 1 and 2 threads (OMP_NUM_THREADS)
// and reports how much faster the gradient gets.
//
// --input is a size spec "n<grid side>_t<steps>", e.g. n512_t20.
//
//===----------------------------------------------------------------------===//

#include "../common/enzyme_abi.hpp"
#include "../heat/heat.hpp"

namespace {

// One explicit step on the interior rows; the border keeps its values.
void step(int N, double A, const double *U, double *Next) {
#pragma omp parallel for schedule(static)
  for (int I = 1; I < N - 1; ++I)
    for (int J = 1; J < N - 1; ++J) {
      size_t C = (size_t)I * N + J;
      Next[C] = U[C] + A * (U[C - N] + U[C + N] + U[C - 1] + U[C + 1] -
                            4 * U[C]);
    }
}

double objective(int N, int Steps, const double *Alpha, const double *U0,
                 const double *Weight) {
  const size_t Cells = (size_t)N * N;
  double *U = new double[Cells], *Next = new double[Cells];
#pragma omp parallel for schedule(static)
  for (size_t I = 0; I < Cells; ++I) {
    U[I] = U0[I];
    Next[I] = U0[I];
  }
  for (int T = 0; T < Steps; ++T) {
    step(N, *Alpha, U, Next);
    double *Swap = U;
    U = Next;
    Next = Swap;
  }
  double Loss = 0;
#pragma omp parallel for reduction(+ : Loss) schedule(static)
  for (size_t I = 0; I < Cells; ++I)
    Loss += Weight[I] * U[I] * U[I];
  delete[] U;
  delete[] Next;
  return Loss;
}

} // namespace

int main(int argc, char **argv) {
  bench::Options O = bench::parse_options(argc, argv);
  heat::Input In = heat::make(O.Input);
  std::vector<double> DU0(In.U0.size());
  double DAlpha = 0;
  auto Primal = [&] {
    return objective(In.N, In.Steps, &In.Alpha, In.U0.data(),
                     In.Weight.data());
  };
  auto Gradient = [&] {
    std::fill(DU0.begin(), DU0.end(), 0.0);
    DAlpha = 0;
    __enzyme_autodiff((void *)objective, enzyme_const, In.N, enzyme_const,
                      In.Steps, &In.Alpha, &DAlpha, In.U0.data(), DU0.data(),
                      enzyme_const, In.Weight.data());
  };
  Gradient();
  bench::FdCheck Check("omp");
  Check.component("alpha", &In.Alpha, DAlpha, Primal);
  Check.spread("u0", In.U0.data(), DU0.data(), DU0.size(), 5, Primal);
  double TPrimal = bench::time_median(O, [&] { bench::Sink = Primal(); });
  double TGradient = bench::time_median(O, Gradient);
  return bench::print_result("omp", O, TPrimal, TGradient, 1, Check);
}
