//===- lstm.cpp - LSTM gradient through the Enzyme ABI --------------------===//
//
// Gradient of the LSTM loss with respect to the main and extra parameters,
// and its derivative along a random direction of both (forward mode).
//
//===----------------------------------------------------------------------===//

#include "lstm.hpp"
#include "../common/enzyme_abi.hpp"

int main(int argc, char **argv) {
  bench::Options O = bench::parse_options(argc, argv);
  lstm::Input In = lstm::read(O.Input);
  std::vector<double> DMain(In.Main.size()), DExtra(In.Extra.size());

  auto Primal = [&] {
    return lstm::objective<double>(In.L, In.C, In.B, In.Main.data(),
                                   In.Extra.data(), In.State.data(),
                                   In.Seq.data());
  };
  auto Gradient = [&] {
    std::fill(DMain.begin(), DMain.end(), 0.0);
    std::fill(DExtra.begin(), DExtra.end(), 0.0);
    __enzyme_autodiff((void *)lstm::objective<double>, enzyme_const, In.L,
                      enzyme_const, In.C, enzyme_const, In.B, enzyme_dup,
                      In.Main.data(), DMain.data(), enzyme_dup, In.Extra.data(),
                      DExtra.data(), enzyme_const, In.State.data(),
                      enzyme_const, In.Seq.data());
  };

  Gradient();
  bench::FdCheck Check("lstm");
  Check.spread("main", In.Main.data(), DMain.data(), DMain.size(), 6, Primal);
  Check.spread("extra", In.Extra.data(), DExtra.data(), DExtra.size(), 4,
               Primal);

  std::vector<double> VMain = bench::random_direction(In.Main.size(), 1),
                      VExtra = bench::random_direction(In.Extra.size(), 2);
  auto Tangent = [&] {
    return __enzyme_fwddiff((void *)lstm::objective<double>, enzyme_const, In.L,
                            enzyme_const, In.C, enzyme_const, In.B, enzyme_dup,
                            In.Main.data(), VMain.data(), enzyme_dup,
                            In.Extra.data(), VExtra.data(), enzyme_const,
                            In.State.data(), enzyme_const, In.Seq.data());
  };
  double Jvp = Tangent();
  bench::FdCheck FwdCheck("lstm forward");
  FwdCheck.directional("J v",
                       {{In.Main.data(), VMain.data(), VMain.size()},
                        {In.Extra.data(), VExtra.data(), VExtra.size()}},
                       Jvp, Primal);
  bench::Dot GradV;
  GradV.add(DMain.data(), VMain.data(), VMain.size());
  GradV.add(DExtra.data(), VExtra.data(), VExtra.size());
  FwdCheck.agree("<gradient, v>", Jvp, GradV.Sum, GradV.Scale);

  // Vector mode: eight directions in one call (lane 0 is v), each lane
  // checked against the gradient.
  bench::Directions8 WMain(In.Main.size(), 1);
  bench::Directions8 WExtra(In.Extra.size(), 2);
  auto Tangent8 = [&] {
    return __enzyme_fwddiff_x8(
        (void *)lstm::objective<double>, enzyme_width, 8, enzyme_const, In.L,
        enzyme_const, In.C, enzyme_const, In.B, enzyme_dup, In.Main.data(),
        ENZYME_BENCH_LANES(WMain.Ptr), enzyme_dup, In.Extra.data(),
        ENZYME_BENCH_LANES(WExtra.Ptr), enzyme_const, In.State.data(),
        enzyme_const, In.Seq.data());
  };
  enzyme_tangents8 Jvp8 = Tangent8();
  for (int K = 0; K < 8; ++K) {
    bench::Dot Lane;
    Lane.add(DMain.data(), WMain.Ptr[K], In.Main.size());
    Lane.add(DExtra.data(), WExtra.Ptr[K], In.Extra.size());
    char Name[64];
    std::snprintf(Name, sizeof Name, "<gradient, v_%d> (width 8)", K);
    FwdCheck.agree(Name, Jvp8.d[K], Lane.Sum, Lane.Scale);
  }

  double TPrimal = bench::time_median(O, [&] { bench::Sink = Primal(); });
  double TGradient = bench::time_median(O, Gradient);
  double TJvp = bench::time_median(O, [&] { bench::Sink = Tangent(); });
  double TJvp8 = bench::time_median(O, [&] { bench::Sink = Tangent8().d[7]; });
  int Status =
      bench::print_forward_result("lstm", O, TPrimal, TJvp, FwdCheck, TJvp8);
  return bench::print_result("lstm", O, TPrimal, TGradient, 1, Check) | Status;
}
