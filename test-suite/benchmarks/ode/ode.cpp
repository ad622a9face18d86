//===- ode.cpp - Pendulum-chain RK4 gradient through the Enzyme ABI -------===//
//
// Gradient of the final-state loss with respect to the initial state and
// the parameters, and its derivative along a random direction of both
// (forward mode).
//
//===----------------------------------------------------------------------===//

#include "ode.hpp"
#include "../common/enzyme_abi.hpp"

int main(int argc, char **argv) {
  bench::Options O = bench::parse_options(argc, argv);
  ode::Input In = ode::make(O.Input);
  std::vector<double> DY0(In.Y0.size()), DParams(In.Params.size());

  auto Primal = [&] {
    return ode::objective<double>(In.M, In.Steps, In.Dt, In.Y0.data(),
                                  In.Params.data(), In.Target.data());
  };
  auto Gradient = [&] {
    std::fill(DY0.begin(), DY0.end(), 0.0);
    std::fill(DParams.begin(), DParams.end(), 0.0);
    __enzyme_autodiff((void *)ode::objective<double>, enzyme_const, In.M,
                      enzyme_const, In.Steps, enzyme_const, In.Dt, In.Y0.data(),
                      DY0.data(), In.Params.data(), DParams.data(),
                      enzyme_const, In.Target.data());
  };

  Gradient();
  bench::FdCheck Check("ode");
  Check.spread("y0", In.Y0.data(), DY0.data(), DY0.size(), 4, Primal);
  Check.spread("params", In.Params.data(), DParams.data(), DParams.size(), 4,
               Primal);
  Check.component("damping", &In.Params[In.M], DParams[In.M], Primal);

  std::vector<double> VY0 = bench::random_direction(In.Y0.size(), 1),
                      VParams = bench::random_direction(In.Params.size(), 2);
  auto Tangent = [&] {
    return __enzyme_fwddiff((void *)ode::objective<double>, enzyme_const, In.M,
                            enzyme_const, In.Steps, enzyme_const, In.Dt,
                            enzyme_dup, In.Y0.data(), VY0.data(), enzyme_dup,
                            In.Params.data(), VParams.data(), enzyme_const,
                            In.Target.data());
  };
  double Jvp = Tangent();
  bench::FdCheck FwdCheck("ode forward");
  FwdCheck.directional("J v",
                       {{In.Y0.data(), VY0.data(), VY0.size()},
                        {In.Params.data(), VParams.data(), VParams.size()}},
                       Jvp, Primal);
  bench::Dot GradV;
  GradV.add(DY0.data(), VY0.data(), VY0.size());
  GradV.add(DParams.data(), VParams.data(), VParams.size());
  FwdCheck.agree("<gradient, v>", Jvp, GradV.Sum, GradV.Scale);

  // Vector mode: eight directions in one call (lane 0 is v), each lane
  // checked against the gradient.
  bench::Directions8 WY0(In.Y0.size(), 1);
  bench::Directions8 WParams(In.Params.size(), 2);
  auto Tangent8 = [&] {
    return __enzyme_fwddiff_x8(
        (void *)ode::objective<double>, enzyme_width, 8, enzyme_const, In.M,
        enzyme_const, In.Steps, enzyme_const, In.Dt, enzyme_dup, In.Y0.data(),
        ENZYME_BENCH_LANES(WY0.Ptr), enzyme_dup, In.Params.data(),
        ENZYME_BENCH_LANES(WParams.Ptr), enzyme_const, In.Target.data());
  };
  enzyme_tangents8 Jvp8 = Tangent8();
  for (int K = 0; K < 8; ++K) {
    bench::Dot Lane;
    Lane.add(DY0.data(), WY0.Ptr[K], In.Y0.size());
    Lane.add(DParams.data(), WParams.Ptr[K], In.Params.size());
    char Name[64];
    std::snprintf(Name, sizeof Name, "<gradient, v_%d> (width 8)", K);
    FwdCheck.agree(Name, Jvp8.d[K], Lane.Sum, Lane.Scale);
  }

  double TPrimal = bench::time_median(O, [&] { bench::Sink = Primal(); });
  double TGradient = bench::time_median(O, Gradient);
  double TJvp = bench::time_median(O, [&] { bench::Sink = Tangent(); });
  double TJvp8 = bench::time_median(O, [&] { bench::Sink = Tangent8().d[7]; });
  int Status =
      bench::print_forward_result("ode", O, TPrimal, TJvp, FwdCheck, TJvp8);
  return bench::print_result("ode", O, TPrimal, TGradient, 1, Check) | Status;
}
