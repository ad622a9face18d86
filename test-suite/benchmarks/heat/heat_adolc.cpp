//===- heat_adolc.cpp - Heat-equation gradient with ADOL-C ----------------===//
//
// Gradient of the final-field loss with respect to the initial field and
// the diffusion coefficient, taped by ADOL-C and evaluated by its reverse
// mode.
//
// The objective branches only on indices, never on values, so one tape
// would serve every point. Like the other ADOL-C benchmarks, this one still
// re-records the tape at every gradient evaluation (trace_on, objective,
// trace_off, then gradient()), and the timing covers taping and gradient:
// the cost a user pays for a gradient at a new point without knowing that
// the control flow is fixed.
//
// Build: clang++ -O2 -std=c++17 heat_adolc.cpp -ladolc
//
//===----------------------------------------------------------------------===//

#include <adolc/adolc.h>

#include "../common/adolc_tape.hpp"

#include "heat.hpp"

#include <algorithm>

int main(int argc, char **argv) {
  bench::Options O = bench::parse_options(argc, argv);
  if (O.Tool == "enzyme")
    O.Tool = "adolc";
  heat::Input In = heat::make(O.Input);
  const size_t NU = In.U0.size();

  auto Primal = [&] {
    return heat::objective<double>(In.N, In.Steps, &In.Alpha, In.U0.data(),
                                   In.Weight.data());
  };
  // The coefficient, then the initial field.
  auto Objective = [&](const adouble *Vars) {
    return heat::objective<adouble>(In.N, In.Steps, Vars, Vars + 1,
                                    In.Weight.data());
  };
  bench::TapedGradient Taped({{&In.Alpha, 1}, {In.U0.data(), NU}});
  auto Gradient = [&] { Taped(Objective); };

  Taped.calibrate(Objective);
  Gradient();
  const double DAlpha = *Taped.gradient(0), *DU0 = Taped.gradient(1);
  bench::FdCheck Check("heat");
  Check.component("alpha", &In.Alpha, DAlpha, Primal);
  Check.spread("u0", In.U0.data(), DU0, NU, 5, Primal);
  size_t Centre = (size_t)(In.N / 2) * In.N + In.N / 2;
  Check.component("u0[centre]", &In.U0[Centre], DU0[Centre], Primal);

  double TPrimal = bench::time_median(O, [&] { bench::Sink = Primal(); });
  double TGradient = bench::time_median(O, Gradient);
  return bench::print_result("heat", O, TPrimal, TGradient, 1, Check);
}
