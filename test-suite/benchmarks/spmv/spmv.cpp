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

  // Vector mode: eight directions in one call (lane 0 is v), each lane
  // checked against the gradient.
  bench::Directions8 WValues(In.Values.size(), 1);
  bench::Directions8 WX0(In.X0.size(), 2);
  auto Tangent8 = [&] {
    return __enzyme_fwddiff_x8((void *)spmv::objective<double>, enzyme_width, 8,
                               enzyme_const, In.N, enzyme_const, In.Iterations,
                               enzyme_const, In.RowStart.data(), enzyme_const,
                               In.Column.data(), enzyme_dup, In.Values.data(),
                               ENZYME_BENCH_LANES(WValues.Ptr), enzyme_dup,
                               In.X0.data(), ENZYME_BENCH_LANES(WX0.Ptr));
  };
  enzyme_tangents8 Jvp8 = Tangent8();
  for (int K = 0; K < 8; ++K) {
    bench::Dot Lane;
    Lane.add(DValues.data(), WValues.Ptr[K], In.Values.size());
    Lane.add(DX0.data(), WX0.Ptr[K], In.X0.size());
    char Name[64];
    std::snprintf(Name, sizeof Name, "<gradient, v_%d> (width 8)", K);
    FwdCheck.agree(Name, Jvp8.d[K], Lane.Sum, Lane.Scale);
  }

  double TPrimal = bench::time_median(O, [&] { bench::Sink = Primal(); });
  double TGradient = bench::time_median(O, Gradient);
  double TJvp = bench::time_median(O, [&] { bench::Sink = Tangent(); });
  double TJvp8 = bench::time_median(O, [&] { bench::Sink = Tangent8().d[7]; });
  int Status =
      bench::print_forward_result("spmv", O, TPrimal, TJvp, FwdCheck, TJvp8);
  return bench::print_result("spmv", O, TPrimal, TGradient, 1, Check) | Status;
}
