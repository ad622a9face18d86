//===- heat.cpp - Heat-equation gradient through the Enzyme ABI -----------===//
//
// Gradient of the final-field loss with respect to the initial field and
// the diffusion coefficient (passed by pointer, with a shadow).
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

  double TPrimal = bench::time_median(O, [&] { bench::Sink = Primal(); });
  double TGradient = bench::time_median(O, Gradient);
  return bench::print_result("heat", O, TPrimal, TGradient, 1, Check);
}
