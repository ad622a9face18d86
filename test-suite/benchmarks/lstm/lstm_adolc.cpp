//===- lstm_adolc.cpp - LSTM gradient with ADOL-C -------------------------===//
//
// The same benchmark as lstm.cpp, the gradient computed by ADOL-C. The loss
// branches on values (the max in logsumexp), so a tape is only valid at the
// point where it was recorded: every gradient evaluation re-records the tape
// (trace_on, the adouble objective, trace_off) and then runs gradient(), and
// the timing covers all of it.
//
// Build: clang++ -O2 -std=c++17 lstm_adolc.cpp -ladolc
//
//===----------------------------------------------------------------------===//

#include <adolc/adolc.h>

#include "../common/adolc_tape.hpp"

#include "lstm.hpp"

#include <algorithm>

int main(int argc, char **argv) {
  bench::Options O = bench::parse_options(argc, argv);
  if (O.Tool == "enzyme")
    O.Tool = "adolc";
  lstm::Input In = lstm::read(O.Input);
  const size_t NMain = In.Main.size(), NExtra = In.Extra.size();

  auto Primal = [&] {
    return lstm::objective<double>(In.L, In.C, In.B, In.Main.data(),
                                   In.Extra.data(), In.State.data(),
                                   In.Seq.data());
  };
  auto Objective = [&](const adouble *Vars) {
    return lstm::objective<adouble>(In.L, In.C, In.B, Vars, Vars + NMain,
                                    In.State.data(), In.Seq.data());
  };
  bench::TapedGradient Taped(
      {{In.Main.data(), NMain}, {In.Extra.data(), NExtra}});
  auto Gradient = [&] { Taped(Objective); };

  Taped.calibrate(Objective);
  Gradient();
  bench::FdCheck Check("lstm");
  Check.spread("main", In.Main.data(), Taped.gradient(0), NMain, 6, Primal);
  Check.spread("extra", In.Extra.data(), Taped.gradient(1), NExtra, 4, Primal);

  double TPrimal = bench::time_median(O, [&] { bench::Sink = Primal(); });
  double TGradient = bench::time_median(O, Gradient);
  return bench::print_result("lstm", O, TPrimal, TGradient, 1, Check);
}
