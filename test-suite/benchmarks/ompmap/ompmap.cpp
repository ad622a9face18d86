//===- ompmap.cpp - An element-wise OpenMP kernel and its gradient --------===//
//
// A batch of independent cells, each relaxed over a few explicit steps
// `u += h (c_i - a u^3 + b sin(u))` from u0_i with its own source c_i and
// two shared coefficients a and b, then a weighted reduction. Each
// iteration of the `parallel for` reads only its own cell: the reverse pass
// adds those adjoints without atomics, and the shared coefficients' in a
// per-thread sum (Analysis/ParallelLoopReads.h). scripts/bench runs it with
// 1 and 2 threads, built as usual and with every adjoint atomic
// (-mllvm -enzyme-openmp-plain-adjoints=false), and reports both.
//
// --input is a size spec "n<cells>_t<steps>", e.g. n1000000_t4.
//
//===----------------------------------------------------------------------===//

#include "../common/bench.hpp"
#include "../common/enzyme_abi.hpp"

#include <cmath>
#include <vector>

namespace {

struct Input {
  long N = 0;
  int Steps = 0;
  double Coef[2] = {0.3, 0.7};        // a and b (active)
  std::vector<double> U0, Source;     // per cell (active)
  std::vector<double> Weight;         // loss weights (constant)
};

Input make(const std::string &Spec) {
  long V[2];
  bench::parse_spec(Spec, "nt", V);
  Input In;
  In.N = V[0];
  In.Steps = (int)V[1];
  In.U0.resize(In.N);
  In.Source.resize(In.N);
  In.Weight.resize(In.N);
  bench::Lcg R(0x0a9u);
  for (long I = 0; I < In.N; ++I) {
    In.U0[I] = 2 * R.uniform() - 1;
    In.Source[I] = R.uniform() - 0.5;
    In.Weight[I] = 0.5 + R.uniform();
  }
  return In;
}

double objective(long N, int Steps, const double *Coef, const double *U0,
                 const double *Source, const double *Weight, double *U) {
  const double A = Coef[0], B = Coef[1], H = 0.1;
#pragma omp parallel for schedule(static)
  for (long I = 0; I < N; ++I) {
    double V = U0[I];
    for (int T = 0; T < Steps; ++T)
      V += H * (Source[I] - A * V * V * V + B * std::sin(V));
    U[I] = V;
  }
  double Loss = 0;
#pragma omp parallel for reduction(+ : Loss) schedule(static)
  for (long I = 0; I < N; ++I)
    Loss += Weight[I] * U[I] * U[I];
  return Loss;
}

} // namespace

int main(int argc, char **argv) {
  bench::Options O = bench::parse_options(argc, argv);
  Input In = make(O.Input);
  std::vector<double> U(In.N), DU(In.N), DU0(In.N), DSource(In.N);
  double DCoef[2];
  auto Primal = [&] {
    return objective(In.N, In.Steps, In.Coef, In.U0.data(), In.Source.data(),
                     In.Weight.data(), U.data());
  };
  auto Gradient = [&] {
    std::fill(DU0.begin(), DU0.end(), 0.0);
    std::fill(DSource.begin(), DSource.end(), 0.0);
    std::fill(DU.begin(), DU.end(), 0.0);
    DCoef[0] = DCoef[1] = 0;
    __enzyme_autodiff((void *)objective, enzyme_const, In.N, enzyme_const,
                      In.Steps, In.Coef, DCoef, In.U0.data(), DU0.data(),
                      In.Source.data(), DSource.data(), enzyme_const,
                      In.Weight.data(), U.data(), DU.data());
  };
  Gradient();
  bench::FdCheck Check("ompmap");
  Check.component("a", &In.Coef[0], DCoef[0], Primal);
  Check.component("b", &In.Coef[1], DCoef[1], Primal);
  Check.spread("u0", In.U0.data(), DU0.data(), DU0.size(), 5, Primal);
  Check.spread("source", In.Source.data(), DSource.data(), DSource.size(), 5,
               Primal);
  double TPrimal = bench::time_median(O, [&] { bench::Sink = Primal(); });
  double TGradient = bench::time_median(O, Gradient);
  return bench::print_result("ompmap", O, TPrimal, TGradient, 1, Check);
}
