//===- lse.cpp - Log-sum-exp gradient through the Enzyme ABI --------------===//
//
// Gradient of the log-sum-exp cross-entropy with respect to the logits.
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

  double TPrimal = bench::time_median(O, [&] { bench::Sink = Primal(); });
  double TGradient = bench::time_median(O, Gradient);
  return bench::print_result("lse", O, TPrimal, TGradient, 1, Check);
}
