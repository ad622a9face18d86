//===- kokkos_mdrange.cpp - A 2-D Kokkos kernel's gradient on OpenMP threads ==//
//
// T explicit steps of a two-species reaction on an N x M grid of cells,
// each step a Kokkos::parallel_for over an MDRangePolicy<Rank<2>>:
//
//   u' = u + dt (a u (1 - u) - b u v)
//   v' = v + dt (b u v - c v)
//
// with rate fields a and b (one value per cell) and c a constant. The loss
// is the mean of u^2 + v^2 after the last step (a parallel_reduce), and the
// gradient is taken with respect to both rate fields: 2 N M parameters,
// one reverse sweep. Every read is of a cell's own element, so on the
// OpenMP backend the reverse adds those adjoints without atomics once every
// thread's points pass their checks (docs/parallel.md). scripts/bench runs
// it among the parallel benchmarks with 1 and 2 threads, built as users get
// it and with every shared adjoint added atomically.
//
// --input is a size spec "n<rows>_m<columns>_t<steps>".
//
//===----------------------------------------------------------------------===//

#include "../common/bench.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>

template <typename RT, typename... Args> RT __enzyme_autodiff(void *, Args...);
int enzyme_dup, enzyme_const;

namespace kokkos_mdrange {

using Grid = Kokkos::View<double **>;
using Cells = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;

constexpr double Dt = 0.05, C = 0.3;

struct Problem {
  int N = 0, M = 0, Steps = 0;
  Grid U0, V0;
};

double loss(const Grid &A, const Grid &B, const Problem &Pb) {
  const int N = Pb.N, M = Pb.M;
  const Grid U0 = Pb.U0, V0 = Pb.V0;
  Grid U("u", N, M), V("v", N, M), NextU("next_u", N, M),
      NextV("next_v", N, M);
  Kokkos::parallel_for(
      "init", Cells({0, 0}, {N, M}), KOKKOS_LAMBDA(int I, int J) {
        U(I, J) = U0(I, J);
        V(I, J) = V0(I, J);
      });
  for (int T = 0; T < Pb.Steps; ++T) {
    Kokkos::parallel_for(
        "react", Cells({0, 0}, {N, M}), KOKKOS_LAMBDA(int I, int J) {
          double Uc = U(I, J), Vc = V(I, J), Meet = B(I, J) * Uc * Vc;
          NextU(I, J) = Uc + Dt * (A(I, J) * Uc * (1.0 - Uc) - Meet);
          NextV(I, J) = Vc + Dt * (Meet - C * Vc);
        });
    Kokkos::parallel_for(
        "copy", Cells({0, 0}, {N, M}), KOKKOS_LAMBDA(int I, int J) {
          U(I, J) = NextU(I, J);
          V(I, J) = NextV(I, J);
        });
  }
  double Sum = 0;
  Kokkos::parallel_reduce(
      "loss", N,
      KOKKOS_LAMBDA(int I, double &S) {
        for (int J = 0; J < M; ++J)
          S += U(I, J) * U(I, J) + V(I, J) * V(I, J);
      },
      Sum);
  return Sum / ((double)N * M);
}

int run(bench::Options O) {
  long Size[3];
  bench::parse_spec(O.Input, "nmt", Size);
  Problem Pb{(int)Size[0], (int)Size[1], (int)Size[2],
             Grid("u0", Size[0], Size[1]), Grid("v0", Size[0], Size[1])};
  Grid A("a", Pb.N, Pb.M), B("b", Pb.N, Pb.M);
  for (int I = 0; I < Pb.N; ++I)
    for (int J = 0; J < Pb.M; ++J) {
      double X = (I + 0.5) / Pb.N, Y = (J + 0.5) / Pb.M;
      Pb.U0(I, J) = 0.5 + 0.3 * std::sin(3 * X + Y);
      Pb.V0(I, J) = 0.4 + 0.2 * std::cos(2 * Y - X);
      A(I, J) = 0.8 + 0.1 * std::sin(5 * X * Y);
      B(I, J) = 0.6 + 0.1 * std::cos(4 * X - 2 * Y);
    }
  Grid DA("da", Pb.N, Pb.M), DB("db", Pb.N, Pb.M);
  auto Primal = [&] { return loss(A, B, Pb); };
  auto Gradient = [&] {
    // (Not Kokkos::deep_copy of a scalar into these 2-D Views: with it in
    // the program the engine cannot differentiate loss, a known limit.)
    std::fill_n(DA.data(), DA.size(), 0.0);
    std::fill_n(DB.data(), DB.size(), 0.0);
    __enzyme_autodiff<void>((void *)loss, enzyme_dup, A, DA, enzyme_dup, B,
                            DB, enzyme_const, Pb);
  };
  Gradient();
  bench::FdCheck Check("kokkos_mdrange");
  Check.spread("a", A.data(), DA.data(), (size_t)Pb.N * Pb.M, 5, Primal);
  Check.spread("b", B.data(), DB.data(), (size_t)Pb.N * Pb.M, 5, Primal);
  double TPrimal = bench::time_median(O, [&] { bench::Sink = Primal(); });
  double TGradient = bench::time_median(O, Gradient);
  return bench::print_result("kokkos_mdrange", O, TPrimal, TGradient, 1,
                             Check);
}

} // namespace kokkos_mdrange

int main(int argc, char **argv) {
  bench::Options O = bench::parse_options(argc, argv);
  Kokkos::ScopeGuard Guard;
  return kokkos_mdrange::run(O);
}
