//===- spmv_adolc.cpp - Sparse tanh-iteration gradient with ADOL-C --------===//
//
// Gradient of the final-vector loss with respect to the starting vector and
// the nonzero values of the matrix, taped by ADOL-C and evaluated by its
// reverse mode.
//
// The objective branches only on indices, never on values, so one tape
// would serve every point. Like the other ADOL-C benchmarks, this one still
// re-records the tape at every gradient evaluation (trace_on, objective,
// trace_off, then gradient()), and the timing covers taping and gradient:
// the cost a user pays for a gradient at a new point without knowing that
// the control flow is fixed.
//
// Build: clang++ -O2 -std=c++17 spmv_adolc.cpp -ladolc
//
//===----------------------------------------------------------------------===//

#include <adolc/adolc.h>

#include "../common/adolc_tape.hpp"

#include "spmv.hpp"

#include <algorithm>

int main(int argc, char **argv) {
  bench::Options O = bench::parse_options(argc, argv);
  if (O.Tool == "enzyme")
    O.Tool = "adolc";
  spmv::Input In = spmv::make(O.Input);
  const size_t NValues = In.Values.size(), NX = In.X0.size();

  auto Primal = [&] {
    return spmv::objective<double>(In.N, In.Iterations, In.RowStart.data(),
                                   In.Column.data(), In.Values.data(),
                                   In.X0.data());
  };
  // The matrix values, then the starting vector.
  auto Objective = [&](const adouble *Vars) {
    return spmv::objective<adouble>(In.N, In.Iterations, In.RowStart.data(),
                                    In.Column.data(), Vars, Vars + NValues);
  };
  bench::TapedGradient Taped({{In.Values.data(), NValues}, {In.X0.data(), NX}});
  auto Gradient = [&] { Taped(Objective); };

  Taped.calibrate(Objective);
  Gradient();
  const double *DValues = Taped.gradient(0), *DX0 = Taped.gradient(1);
  bench::FdCheck Check("spmv");
  Check.spread("x0", In.X0.data(), DX0, NX, 5, Primal);
  Check.spread("values", In.Values.data(), DValues, NValues, 5, Primal);

  double TPrimal = bench::time_median(O, [&] { bench::Sink = Primal(); });
  double TGradient = bench::time_median(O, Gradient);
  return bench::print_result("spmv", O, TPrimal, TGradient, 1, Check);
}
