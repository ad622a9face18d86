//===- spmv.cpp - Sparse tanh-iteration gradient through the Enzyme ABI ---===//
//
// Gradient of the final-vector loss with respect to the starting vector and
// the nonzero values of the matrix.
//
//===----------------------------------------------------------------------===//

#include "spmv.hpp"
#include "../common/enzyme_abi.hpp"

int main(int argc, char **argv) {
  bench::Options O = bench::parse_options(argc, argv);
  spmv::Input In = spmv::make(O.Input);
  std::vector<double> DValues(In.Values.size()), DX0(In.X0.size());

  auto Primal = [&] {
    return spmv::objective<double>(In.N, In.Iterations, In.RowStart.data(),
                                   In.Column.data(), In.Values.data(),
                                   In.X0.data());
  };
  auto Gradient = [&] {
    std::fill(DValues.begin(), DValues.end(), 0.0);
    std::fill(DX0.begin(), DX0.end(), 0.0);
    __enzyme_autodiff((void *)spmv::objective<double>, enzyme_const, In.N,
                      enzyme_const, In.Iterations, enzyme_const,
                      In.RowStart.data(), enzyme_const, In.Column.data(),
                      In.Values.data(), DValues.data(), In.X0.data(),
                      DX0.data());
  };

  Gradient();
  bench::FdCheck Check("spmv");
  Check.spread("x0", In.X0.data(), DX0.data(), DX0.size(), 5, Primal);
  Check.spread("values", In.Values.data(), DValues.data(), DValues.size(), 5,
               Primal);

  double TPrimal = bench::time_median(O, [&] { bench::Sink = Primal(); });
  double TGradient = bench::time_median(O, Gradient);
  return bench::print_result("spmv", O, TPrimal, TGradient, 1, Check);
}
