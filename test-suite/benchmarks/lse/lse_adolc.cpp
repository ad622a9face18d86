//===- lse_adolc.cpp - Log-sum-exp gradient with ADOL-C -------------------===//
//
// Gradient of the log-sum-exp cross-entropy with respect to the logits,
// taped by ADOL-C and evaluated by its reverse mode.
//
// The objective branches on values (the maximum), so a tape is only valid
// at the point where it was recorded: every gradient evaluation re-records
// the tape (trace_on, objective, trace_off) and then runs gradient(), and
// the timing covers all of it.
//
// Build: clang++ -O2 -std=c++17 lse_adolc.cpp -ladolc
//
//===----------------------------------------------------------------------===//

#include <adolc/adolc.h>

#include "../common/adolc_tape.hpp"

#include "lse.hpp"

#include <algorithm>

int main(int argc, char **argv) {
  bench::Options O = bench::parse_options(argc, argv);
  if (O.Tool == "enzyme")
    O.Tool = "adolc";
  lse::Input In = lse::make(O.Input);
  const size_t N = In.X.size();

  auto Primal = [&] {
    return lse::objective<double>(In.N, In.X.data(), In.P.data());
  };
  auto Objective = [&](const adouble *X) {
    return lse::objective<adouble>(In.N, X, In.P.data());
  };
  bench::TapedGradient Taped({{In.X.data(), N}});
  auto Gradient = [&] { Taped(Objective); };

  Taped.calibrate(Objective);
  Gradient();
  const double *DX = Taped.gradient(0);
  bench::FdCheck Check("lse");
  Check.spread("x", In.X.data(), DX, N, 5, Primal);
  size_t ArgMax = std::max_element(In.X.begin(), In.X.end()) - In.X.begin();
  Check.component("x[argmax]", &In.X[ArgMax], DX[ArgMax], Primal);

  double TPrimal = bench::time_median(O, [&] { bench::Sink = Primal(); });
  double TGradient = bench::time_median(O, Gradient);
  return bench::print_result("lse", O, TPrimal, TGradient, 1, Check);
}
