//===- gmm.cpp - GMM gradient through the Enzyme ABI ----------------------===//
//
// Gradient of the GMM objective with respect to alphas, means and icf.
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

  double TPrimal = bench::time_median(O, [&] { bench::Sink = Primal(); });
  double TGradient = bench::time_median(O, Gradient);
  return bench::print_result("gmm", O, TPrimal, TGradient, 1, Check);
}
