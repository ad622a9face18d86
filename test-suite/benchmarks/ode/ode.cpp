//===- ode.cpp - Pendulum-chain RK4 gradient through the Enzyme ABI -------===//
//
// Gradient of the final-state loss with respect to the initial state and
// the parameters.
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

  double TPrimal = bench::time_median(O, [&] { bench::Sink = Primal(); });
  double TGradient = bench::time_median(O, Gradient);
  return bench::print_result("ode", O, TPrimal, TGradient, 1, Check);
}
