//===- kokkos.cpp - A Kokkos kernel's gradient: ours against Sacado -------===//
//
// The gradient of the nonlinear diffusion kernel of kokkos.hpp with respect
// to its P parameters, three ways: our compiler's reverse mode
// (__enzyme_autodiff on the double instantiation), and Sacado's forward
// mode on the same template (kokkos_sacado.cpp) with DFad (all P tangents
// in one pass) and with SFad of a fixed width (ceil(P / width) passes).
// Each gradient is checked against central finite differences, and
// Sacado's against ours on every component; a mismatch prints FAIL and
// the program exits non-zero.
//
// Build (scripts/bench, test-suite/bench-smoke/kokkos.test):
//   clang++ -O2 -std=c++17 -c kokkos_sacado.cpp -I/usr/include/trilinos
//           <MPI include flags> -o kokkos_sacado.o
//   enzyme-clang++ -fenzyme -O2 -std=c++17 kokkos.cpp kokkos_sacado.o
//           -I/usr/include/trilinos -ltrilinos_kokkoscore
//           -ltrilinos_teuchoscore -ltrilinos_teuchoscomm -ldl
//
// Prints, for --input n<cells>_t<steps>_p<parameters> (--tool is ignored:
// one run times every tool):
//   SACADO kokkos <input> <SFad width> <SFad passes> <primal s, plain clang++>
// then one RESULT line (common/bench.hpp) per tool: enzyme, sacado-dfad,
// sacado-sfad, each with the primal time of the -fenzyme build and one
// sweep, so that its ratio is gradient time / primal time.
//
//===----------------------------------------------------------------------===//

#include "kokkos.hpp"

#include "../common/bench.hpp"

#include <vector>

// Views are C++ objects, which C varargs (common/enzyme_abi.hpp) cannot
// carry: the request is a template, and the Views reach the function's
// const references indirectly.
template <typename RT, typename... Args> RT __enzyme_autodiff(void *, Args...);
int enzyme_dup, enzyme_const;

namespace kokkos_bench {
namespace {

double enzyme_loss(const Vector &Params, const Problem &Pb) {
  return loss<double>(Pb, Params);
}

// Forward mode (Sacado) against reverse mode (ours), on every component;
// the tolerance is relative to the gradient's largest component.
void agree(bench::FdCheck &Check, const double *Forward, const double *Reverse,
           int P) {
  double Scale = 0;
  for (int J = 0; J < P; ++J)
    Scale = std::max(Scale, std::fabs(Reverse[J]));
  for (int J = 0; J < P; ++J) {
    char Name[32];
    std::snprintf(Name, sizeof Name, "dL/dp[%d]", J);
    Check.agree(Name, Forward[J], Reverse[J], Scale);
  }
}

int run(bench::Options O) {
  long Size[3];
  bench::parse_spec(O.Input, "ntp", Size);
  Vector Params;
  const Problem Pb = make((int)Size[0], (int)Size[1], (int)Size[2], Params);
  const int P = Pb.P;
  Vector DParams("dp", P);
  std::vector<double> DFadGrad(P), SFadGrad(P);
  int Passes = 0;

  auto Primal = [&] { return enzyme_loss(Params, Pb); };
  auto Enzyme = [&] {
    Kokkos::deep_copy(DParams, 0.0);
    __enzyme_autodiff<void>((void *)enzyme_loss, enzyme_dup, Params, DParams,
                            enzyme_const, Pb);
  };
  auto DFad = [&] { sacado_dfad_gradient(Pb, Params, DFadGrad.data()); };
  auto SFad = [&] {
    Passes = sacado_sfad_gradient(Pb, Params, SFadGrad.data());
  };
  Enzyme();
  DFad();
  SFad();

  // Finite differences on five components of each; Sacado's against ours
  // on all of them.
  bench::FdCheck EnzymeCheck("kokkos"), DFadCheck("kokkos"),
      SFadCheck("kokkos");
  EnzymeCheck.spread("p", Params.data(), DParams.data(), P, 5, Primal);
  DFadCheck.spread("p", Params.data(), DFadGrad.data(), P, 5, Primal);
  SFadCheck.spread("p", Params.data(), SFadGrad.data(), P, 5, Primal);
  agree(DFadCheck, DFadGrad.data(), DParams.data(), P);
  agree(SFadCheck, SFadGrad.data(), DParams.data(), P);

  double TPrimal = bench::time_median(O, [&] { bench::Sink = Primal(); });
  double TPlain =
      bench::time_median(O, [&] { bench::Sink = plain_primal(Pb, Params); });
  double TEnzyme = bench::time_median(O, Enzyme);
  double TDFad = bench::time_median(O, DFad);
  double TSFad = bench::time_median(O, SFad);

  std::printf("SACADO kokkos %s %d %d %.9g\n", O.Label.c_str(),
              sacado_sfad_width(), Passes, TPlain);
  int Status = 0;
  O.Tool = "enzyme";
  Status |= bench::print_result("kokkos", O, TPrimal, TEnzyme, 1, EnzymeCheck);
  O.Tool = "sacado-dfad";
  Status |= bench::print_result("kokkos", O, TPrimal, TDFad, 1, DFadCheck);
  O.Tool = "sacado-sfad";
  Status |= bench::print_result("kokkos", O, TPrimal, TSFad, 1, SFadCheck);
  return Status;
}

} // namespace
} // namespace kokkos_bench

int main(int argc, char **argv) {
  bench::Options O = bench::parse_options(argc, argv);
  // Finalizes Kokkos at exit, after run() has released every View.
  Kokkos::ScopeGuard Guard;
  return kokkos_bench::run(O);
}
