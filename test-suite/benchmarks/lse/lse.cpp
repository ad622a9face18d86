//===- lse.cpp - Log-sum-exp gradient through the Enzyme ABI --------------===//
//
// Gradient of the log-sum-exp cross-entropy with respect to the logits, and
// its derivative along a random direction of them (forward mode).
//
//===----------------------------------------------------------------------===//

#include "lse.hpp"
#include "../common/enzyme_abi.hpp"

int main(int argc, char **argv) {
  bench::Options O = bench::parse_options(argc, argv);
  lse::Input In = lse::make(O.Input);
  std::vector<double> DX(In.X.size());

  auto Primal = [&] {
    return lse::objective<double>(In.N, In.X.data(), In.P.data());
  };
  auto Gradient = [&] {
    std::fill(DX.begin(), DX.end(), 0.0);
    __enzyme_autodiff((void *)lse::objective<double>, enzyme_const, In.N,
                      In.X.data(), DX.data(), enzyme_const, In.P.data());
  };

  Gradient();
  bench::FdCheck Check("lse");
  Check.spread("x", In.X.data(), DX.data(), DX.size(), 5, Primal);
  size_t ArgMax = std::max_element(In.X.begin(), In.X.end()) - In.X.begin();
  Check.component("x[argmax]", &In.X[ArgMax], DX[ArgMax], Primal);

  std::vector<double> VX = bench::random_direction(In.X.size(), 1);
  auto Tangent = [&] {
    return __enzyme_fwddiff((void *)lse::objective<double>, enzyme_const, In.N,
                            enzyme_dup, In.X.data(), VX.data(), enzyme_const,
                            In.P.data());
  };
  double Jvp = Tangent();
  bench::FdCheck FwdCheck("lse forward");
  FwdCheck.directional("J v", {{In.X.data(), VX.data(), VX.size()}}, Jvp,
                       Primal);
  bench::Dot GradV;
  GradV.add(DX.data(), VX.data(), VX.size());
  FwdCheck.agree("<gradient, v>", Jvp, GradV.Sum, GradV.Scale);

  // Vector mode: eight directions in one call (lane 0 is v), each lane
  // checked against the gradient.
  bench::Directions8 WX(In.X.size(), 1);
  auto Tangent8 = [&] {
    return __enzyme_fwddiff_x8((void *)lse::objective<double>, enzyme_width, 8,
                               enzyme_const, In.N, enzyme_dup, In.X.data(),
                               ENZYME_BENCH_LANES(WX.Ptr), enzyme_const,
                               In.P.data());
  };
  enzyme_tangents8 Jvp8 = Tangent8();
  for (int K = 0; K < 8; ++K) {
    bench::Dot Lane;
    Lane.add(DX.data(), WX.Ptr[K], In.X.size());
    char Name[64];
    std::snprintf(Name, sizeof Name, "<gradient, v_%d> (width 8)", K);
    FwdCheck.agree(Name, Jvp8.d[K], Lane.Sum, Lane.Scale);
  }

  double TPrimal = bench::time_median(O, [&] { bench::Sink = Primal(); });
  double TGradient = bench::time_median(O, Gradient);
  double TJvp = bench::time_median(O, [&] { bench::Sink = Tangent(); });
  double TJvp8 = bench::time_median(O, [&] { bench::Sink = Tangent8().d[7]; });
  int Status =
      bench::print_forward_result("lse", O, TPrimal, TJvp, FwdCheck, TJvp8);
  return bench::print_result("lse", O, TPrimal, TGradient, 1, Check) | Status;
}
