//===- gmm.cpp - GMM gradient through the Enzyme ABI ----------------------===//
//
// Gradient of the GMM objective with respect to alphas, means and icf, and
// its derivative along a random direction of the three (forward mode).
//
//===----------------------------------------------------------------------===//

#include "gmm.hpp"
#include "../common/enzyme_abi.hpp"

#include <cstring>

int main(int argc, char **argv) {
  bench::Options O = bench::parse_options(argc, argv);
  gmm::Input In = gmm::read(O.Input);
  std::vector<double> DAlphas(In.Alphas.size()), DMeans(In.Means.size()),
      DIcf(In.Icf.size());

  auto Primal = [&] {
    return gmm::objective<double>(In.D, In.K, In.N, In.Alphas.data(),
                                  In.Means.data(), In.Icf.data(), In.X.data(),
                                  In.Gamma, In.M);
  };
  auto Gradient = [&] {
    std::fill(DAlphas.begin(), DAlphas.end(), 0.0);
    std::fill(DMeans.begin(), DMeans.end(), 0.0);
    std::fill(DIcf.begin(), DIcf.end(), 0.0);
    __enzyme_autodiff((void *)gmm::objective<double>, enzyme_const, In.D,
                      enzyme_const, In.K, enzyme_const, In.N, In.Alphas.data(),
                      DAlphas.data(), In.Means.data(), DMeans.data(),
                      In.Icf.data(), DIcf.data(), enzyme_const, In.X.data(),
                      enzyme_const, In.Gamma, enzyme_const, In.M);
  };

  Gradient();
  bench::FdCheck Check("gmm");
  Check.spread("alphas", In.Alphas.data(), DAlphas.data(), DAlphas.size(), 3,
               Primal);
  Check.spread("means", In.Means.data(), DMeans.data(), DMeans.size(), 4,
               Primal);
  Check.spread("icf", In.Icf.data(), DIcf.data(), DIcf.size(), 5, Primal);

  std::vector<double> VAlphas = bench::random_direction(In.Alphas.size(), 1),
                      VMeans = bench::random_direction(In.Means.size(), 2),
                      VIcf = bench::random_direction(In.Icf.size(), 3);
  auto Tangent = [&] {
    return __enzyme_fwddiff(
        (void *)gmm::objective<double>, enzyme_const, In.D, enzyme_const, In.K,
        enzyme_const, In.N, enzyme_dup, In.Alphas.data(), VAlphas.data(),
        enzyme_dup, In.Means.data(), VMeans.data(), enzyme_dup, In.Icf.data(),
        VIcf.data(), enzyme_const, In.X.data(), enzyme_const, In.Gamma,
        enzyme_const, In.M);
  };
  double Jvp = Tangent();
  bench::FdCheck FwdCheck("gmm forward");
  FwdCheck.directional("J v",
                       {{In.Alphas.data(), VAlphas.data(), VAlphas.size()},
                        {In.Means.data(), VMeans.data(), VMeans.size()},
                        {In.Icf.data(), VIcf.data(), VIcf.size()}},
                       Jvp, Primal);
  bench::Dot GradV;
  GradV.add(DAlphas.data(), VAlphas.data(), VAlphas.size());
  GradV.add(DMeans.data(), VMeans.data(), VMeans.size());
  GradV.add(DIcf.data(), VIcf.data(), VIcf.size());
  FwdCheck.agree("<gradient, v>", Jvp, GradV.Sum, GradV.Scale);

  // Vector mode: eight directions in one call (lane 0 is v), each lane
  // checked against the gradient.
  bench::Directions8 WAlphas(In.Alphas.size(), 1);
  bench::Directions8 WMeans(In.Means.size(), 2);
  bench::Directions8 WIcf(In.Icf.size(), 3);
  auto Tangent8 = [&] {
    return __enzyme_fwddiff_x8(
        (void *)gmm::objective<double>, enzyme_width, 8, enzyme_const, In.D,
        enzyme_const, In.K, enzyme_const, In.N, enzyme_dup, In.Alphas.data(),
        ENZYME_BENCH_LANES(WAlphas.Ptr), enzyme_dup, In.Means.data(),
        ENZYME_BENCH_LANES(WMeans.Ptr), enzyme_dup, In.Icf.data(),
        ENZYME_BENCH_LANES(WIcf.Ptr), enzyme_const, In.X.data(), enzyme_const,
        In.Gamma, enzyme_const, In.M);
  };
  enzyme_tangents8 Jvp8 = Tangent8();
  for (int K = 0; K < 8; ++K) {
    bench::Dot Lane;
    Lane.add(DAlphas.data(), WAlphas.Ptr[K], In.Alphas.size());
    Lane.add(DMeans.data(), WMeans.Ptr[K], In.Means.size());
    Lane.add(DIcf.data(), WIcf.Ptr[K], In.Icf.size());
    char Name[64];
    std::snprintf(Name, sizeof Name, "<gradient, v_%d> (width 8)", K);
    FwdCheck.agree(Name, Jvp8.d[K], Lane.Sum, Lane.Scale);
  }

  double TPrimal = bench::time_median(O, [&] { bench::Sink = Primal(); });
  double TGradient = bench::time_median(O, Gradient);
  double TJvp = bench::time_median(O, [&] { bench::Sink = Tangent(); });
  double TJvp8 = bench::time_median(O, [&] { bench::Sink = Tangent8().d[7]; });
  int Status =
      bench::print_forward_result("gmm", O, TPrimal, TJvp, FwdCheck, TJvp8);
  return bench::print_result("gmm", O, TPrimal, TGradient, 1, Check) | Status;
}
