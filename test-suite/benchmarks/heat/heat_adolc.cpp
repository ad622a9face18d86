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

namespace {

const short Tag = 1;

} // namespace

int main(int argc, char **argv) {
  bench::Options O = bench::parse_options(argc, argv);
  if (O.Tool == "enzyme")
    O.Tool = "adolc";
  heat::Input In = heat::make(O.Input);
  const size_t NU = In.U0.size(), NVars = 1 + NU;
  std::vector<double> Point(NVars), Grad(NVars);
  bench::TapeBuffers Buffers;

  auto Primal = [&] {
    return heat::objective<double>(In.N, In.Steps, &In.Alpha, In.U0.data(),
                                   In.Weight.data());
  };
  // Records the tape at the current coefficient and initial field.
  auto Record = [&] {
    Point[0] = In.Alpha;
    std::copy(In.U0.begin(), In.U0.end(), Point.begin() + 1);
    Buffers.trace_on();
    {
      std::vector<adouble> Vars(NVars);
      for (size_t I = 0; I < NVars; ++I)
        Vars[I] <<= Point[I];
      adouble Y = heat::objective<adouble>(In.N, In.Steps, Vars.data(),
                                           Vars.data() + 1, In.Weight.data());
      double Value;
      Y >>= Value;
    }
    trace_off();
  };
  auto Gradient = [&] {
    Record();
    gradient(Tag, (int)NVars, Point.data(), Grad.data());
  };

  Buffers.calibrate(Record);
  Gradient();
  const double DAlpha = Grad[0], *DU0 = Grad.data() + 1;
  bench::FdCheck Check("heat");
  Check.component("alpha", &In.Alpha, DAlpha, Primal);
  Check.spread("u0", In.U0.data(), DU0, NU, 5, Primal);
  size_t Centre = (size_t)(In.N / 2) * In.N + In.N / 2;
  Check.component("u0[centre]", &In.U0[Centre], DU0[Centre], Primal);

  double TPrimal = bench::time_median(O, [&] { bench::Sink = Primal(); });
  double TGradient = bench::time_median(O, Gradient);
  return bench::print_result("heat", O, TPrimal, TGradient, 1, Check);
}
