//===- ode_adolc.cpp - Pendulum-chain RK4 gradient with ADOL-C ------------===//
//
// Gradient of the final-state loss with respect to the initial state and
// the parameters, taped by ADOL-C and evaluated by its reverse mode.
//
// The objective branches only on indices, never on values, so one tape
// would serve every point. Like the other ADOL-C benchmarks, this one still
// re-records the tape at every gradient evaluation (trace_on, objective,
// trace_off, then gradient()), and the timing covers taping and gradient:
// the cost a user pays for a gradient at a new point without knowing that
// the control flow is fixed.
//
// Build: clang++ -O2 -std=c++17 ode_adolc.cpp -ladolc
//
//===----------------------------------------------------------------------===//

#include <adolc/adolc.h>

#include "../common/adolc_tape.hpp"

#include "ode.hpp"

#include <algorithm>

int main(int argc, char **argv) {
  bench::Options O = bench::parse_options(argc, argv);
  if (O.Tool == "enzyme")
    O.Tool = "adolc";
  ode::Input In = ode::make(O.Input);
  const size_t NY = In.Y0.size(), NP = In.Params.size();

  auto Primal = [&] {
    return ode::objective<double>(In.M, In.Steps, In.Dt, In.Y0.data(),
                                  In.Params.data(), In.Target.data());
  };
  auto Objective = [&](const adouble *Vars) {
    return ode::objective<adouble>(In.M, In.Steps, In.Dt, Vars, Vars + NY,
                                   In.Target.data());
  };
  bench::TapedGradient Taped({{In.Y0.data(), NY}, {In.Params.data(), NP}});
  auto Gradient = [&] { Taped(Objective); };

  Taped.calibrate(Objective);
  Gradient();
  const double *DY0 = Taped.gradient(0), *DParams = Taped.gradient(1);
  bench::FdCheck Check("ode");
  Check.spread("y0", In.Y0.data(), DY0, NY, 4, Primal);
  Check.spread("params", In.Params.data(), DParams, NP, 4, Primal);
  Check.component("damping", &In.Params[In.M], DParams[In.M], Primal);

  double TPrimal = bench::time_median(O, [&] { bench::Sink = Primal(); });
  double TGradient = bench::time_median(O, Gradient);
  return bench::print_result("ode", O, TPrimal, TGradient, 1, Check);
}
