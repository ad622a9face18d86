//===- kokkos_openmp.cpp - The Kokkos kernel's gradient on OpenMP threads -===//
//
// The nonlinear diffusion kernel of kokkos.hpp on Kokkos' OpenMP backend
// (Kokkos 4.6 built with the toolchain, scripts/build-kokkos), its gradient
// with respect to the P parameters by our reverse mode, which runs each
// kernel's reverse in parallel too. scripts/bench runs it with 1 and 2
// threads (OMP_NUM_THREADS) among the parallel benchmarks, built as users
// get it and with every shared adjoint added atomically.
//
// --input is a size spec "n<cells>_t<steps>_p<parameters>".
//
//===----------------------------------------------------------------------===//

#include "kokkos.hpp"

#include "../common/bench.hpp"

template <typename RT, typename... Args> RT __enzyme_autodiff(void *, Args...);
int enzyme_dup, enzyme_const;

namespace kokkos_bench {
namespace {

double enzyme_loss(const Vector &Params, const Problem &Pb) {
  return loss<double>(Pb, Params);
}

int run(bench::Options O) {
  long Size[3];
  bench::parse_spec(O.Input, "ntp", Size);
  Vector Params;
  const Problem Pb = make((int)Size[0], (int)Size[1], (int)Size[2], Params);
  Vector DParams("dp", Pb.P);
  auto Primal = [&] { return enzyme_loss(Params, Pb); };
  auto Gradient = [&] {
    Kokkos::deep_copy(DParams, 0.0);
    __enzyme_autodiff<void>((void *)enzyme_loss, enzyme_dup, Params, DParams,
                            enzyme_const, Pb);
  };
  Gradient();
  bench::FdCheck Check("kokkos_openmp");
  Check.spread("p", Params.data(), DParams.data(), Pb.P, 5, Primal);
  double TPrimal = bench::time_median(O, [&] { bench::Sink = Primal(); });
  double TGradient = bench::time_median(O, Gradient);
  return bench::print_result("kokkos_openmp", O, TPrimal, TGradient, 1, Check);
}

} // namespace
} // namespace kokkos_bench

int main(int argc, char **argv) {
  bench::Options O = bench::parse_options(argc, argv);
  Kokkos::ScopeGuard Guard;
  return kokkos_bench::run(O);
}
