//===- spmv.cpp - Sparse tanh-iteration gradient through the Enzyme ABI ---===//
//
// Gradient of the final-vector loss with respect to the starting vector and
// the nonzero values of the matrix, and its derivative along a random
// direction of both (forward mode).
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

  std::vector<double> VValues = bench::random_direction(In.Values.size(), 1),
                      VX0 = bench::random_direction(In.X0.size(), 2);
  auto Tangent = [&] {
    return __enzyme_fwddiff((void *)spmv::objective<double>, enzyme_const, In.N,
                            enzyme_const, In.Iterations, enzyme_const,
                            In.RowStart.data(), enzyme_const, In.Column.data(),
                            enzyme_dup, In.Values.data(), VValues.data(),
                            enzyme_dup, In.X0.data(), VX0.data());
  };
  double Jvp = Tangent();
  bench::FdCheck FwdCheck("spmv forward");
  FwdCheck.directional("J v",
                       {{In.Values.data(), VValues.data(), VValues.size()},
                        {In.X0.data(), VX0.data(), VX0.size()}},
                       Jvp, Primal);
  bench::Dot GradV;
  GradV.add(DValues.data(), VValues.data(), VValues.size());
  GradV.add(DX0.data(), VX0.data(), VX0.size());
  FwdCheck.agree("<gradient, v>", Jvp, GradV.Sum, GradV.Scale);

  double TPrimal = bench::time_median(O, [&] { bench::Sink = Primal(); });
  double TGradient = bench::time_median(O, Gradient);
  double TJvp = bench::time_median(O, [&] { bench::Sink = Tangent(); });
  int Status = bench::print_forward_result("spmv", O, TPrimal, TJvp, FwdCheck);
  return bench::print_result("spmv", O, TPrimal, TGradient, 1, Check) | Status;
}
