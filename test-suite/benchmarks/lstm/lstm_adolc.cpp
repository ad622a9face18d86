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

namespace {

const short Tag = 1;

} // namespace

int main(int argc, char **argv) {
  bench::Options O = bench::parse_options(argc, argv);
  if (O.Tool == "enzyme")
    O.Tool = "adolc";
  lstm::Input In = lstm::read(O.Input);
  const size_t NMain = In.Main.size(), NExtra = In.Extra.size();
  const size_t N = NMain + NExtra;
  std::vector<double> X(N), G(N);
  bench::TapeBuffers Buffers;

  auto Primal = [&] {
    return lstm::objective<double>(In.L, In.C, In.B, In.Main.data(),
                                   In.Extra.data(), In.State.data(),
                                   In.Seq.data());
  };
  // Records the tape at the current parameters.
  auto Record = [&] {
    std::copy(In.Main.begin(), In.Main.end(), X.begin());
    std::copy(In.Extra.begin(), In.Extra.end(), X.begin() + NMain);
    Buffers.trace_on();
    {
      std::vector<adouble> Vars(N);
      for (size_t I = 0; I < N; ++I)
        Vars[I] <<= X[I];
      adouble Loss =
          lstm::objective<adouble>(In.L, In.C, In.B, Vars.data(),
                                   Vars.data() + NMain, In.State.data(),
                                   In.Seq.data());
      double Y;
      Loss >>= Y;
    }
    trace_off();
  };
  auto Gradient = [&] {
    Record();
    gradient(Tag, (int)N, X.data(), G.data());
  };

  Buffers.calibrate(Record);
  Gradient();
  bench::FdCheck Check("lstm");
  Check.spread("main", In.Main.data(), G.data(), NMain, 6, Primal);
  Check.spread("extra", In.Extra.data(), G.data() + NMain, NExtra, 4, Primal);

  double TPrimal = bench::time_median(O, [&] { bench::Sink = Primal(); });
  double TGradient = bench::time_median(O, Gradient);
  return bench::print_result("lstm", O, TPrimal, TGradient, 1, Check);
}
