//===- heat.cpp - Heat-equation gradient through the Enzyme ABI -----------===//
//
// Gradient of the final-field loss with respect to the initial field and
// the diffusion coefficient (passed by pointer, with a shadow), and its
// derivative along a random direction of both (forward mode).
//
//===----------------------------------------------------------------------===//

#include "heat.hpp"
#include "../common/enzyme_abi.hpp"

int main(int argc, char **argv) {
  bench::Options O = bench::parse_options(argc, argv);
  heat::Input In = heat::make(O.Input);
  std::vector<double> DU0(In.U0.size());
  double DAlpha = 0;

  auto Primal = [&] {
    return heat::objective<double>(In.N, In.Steps, &In.Alpha, In.U0.data(),
                                   In.Weight.data());
  };
  auto Gradient = [&] {
    std::fill(DU0.begin(), DU0.end(), 0.0);
    DAlpha = 0;
    __enzyme_autodiff((void *)heat::objective<double>, enzyme_const, In.N,
                      enzyme_const, In.Steps, &In.Alpha, &DAlpha, In.U0.data(),
                      DU0.data(), enzyme_const, In.Weight.data());
  };

  Gradient();
  bench::FdCheck Check("heat");
  Check.component("alpha", &In.Alpha, DAlpha, Primal);
  Check.spread("u0", In.U0.data(), DU0.data(), DU0.size(), 5, Primal);
  size_t Centre = (size_t)(In.N / 2) * In.N + In.N / 2;
  Check.component("u0[centre]", &In.U0[Centre], DU0[Centre], Primal);

  std::vector<double> VU0 = bench::random_direction(In.U0.size(), 1),
                      VAlpha = bench::random_direction(1, 2);
  auto Tangent = [&] {
    return __enzyme_fwddiff((void *)heat::objective<double>, enzyme_const, In.N,
                            enzyme_const, In.Steps, enzyme_dup, &In.Alpha,
                            VAlpha.data(), enzyme_dup, In.U0.data(), VU0.data(),
                            enzyme_const, In.Weight.data());
  };
  double Jvp = Tangent();
  bench::FdCheck FwdCheck("heat forward");
  FwdCheck.directional(
      "J v",
      {{&In.Alpha, VAlpha.data(), 1}, {In.U0.data(), VU0.data(), VU0.size()}},
      Jvp, Primal);
  bench::Dot GradV;
  GradV.add(&DAlpha, VAlpha.data(), 1);
  GradV.add(DU0.data(), VU0.data(), VU0.size());
  FwdCheck.agree("<gradient, v>", Jvp, GradV.Sum, GradV.Scale);

  // Vector mode: eight directions in one call (lane 0 is v), each lane
  // checked against the gradient.
  bench::Directions8 WU0(In.U0.size(), 1);
  bench::Directions8 WAlpha(1, 2);
  auto Tangent8 = [&] {
    return __enzyme_fwddiff_x8(
        (void *)heat::objective<double>, enzyme_width, 8, enzyme_const, In.N,
        enzyme_const, In.Steps, enzyme_dup, &In.Alpha,
        ENZYME_BENCH_LANES(WAlpha.Ptr), enzyme_dup, In.U0.data(),
        ENZYME_BENCH_LANES(WU0.Ptr), enzyme_const, In.Weight.data());
  };
  enzyme_tangents8 Jvp8 = Tangent8();
  for (int K = 0; K < 8; ++K) {
    bench::Dot Lane;
    Lane.add(DU0.data(), WU0.Ptr[K], In.U0.size());
    Lane.add(&DAlpha, WAlpha.Ptr[K], 1);
    char Name[64];
    std::snprintf(Name, sizeof Name, "<gradient, v_%d> (width 8)", K);
    FwdCheck.agree(Name, Jvp8.d[K], Lane.Sum, Lane.Scale);
  }

  double TPrimal = bench::time_median(O, [&] { bench::Sink = Primal(); });
  double TGradient = bench::time_median(O, Gradient);
  double TJvp = bench::time_median(O, [&] { bench::Sink = Tangent(); });
  double TJvp8 = bench::time_median(O, [&] { bench::Sink = Tangent8().d[7]; });
  int Status =
      bench::print_forward_result("heat", O, TPrimal, TJvp, FwdCheck, TJvp8);
  return bench::print_result("heat", O, TPrimal, TGradient, 1, Check) | Status;
}
