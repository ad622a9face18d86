//===- gmm_adolc.cpp - GMM gradient with ADOL-C ---------------------------===//
//
// Gradient of the GMM objective with respect to alphas, means and icf,
// taped by ADOL-C (operator overloading) and evaluated by its reverse mode.
//
// The objective branches on values (the max in logsumexp), so a tape is
// only valid at the point where it was recorded: every gradient evaluation
// re-records the tape (trace_on, objective, trace_off) and then runs
// gradient(), and the timing covers all of it.
//
// Build: clang++ -O2 -std=c++17 gmm_adolc.cpp -ladolc
//
//===----------------------------------------------------------------------===//

#include <adolc/adolc.h>

#include "../common/adolc_tape.hpp"

#include "gmm.hpp"

#include <algorithm>

int main(int argc, char **argv) {
  bench::Options O = bench::parse_options(argc, argv);
  if (O.Tool == "enzyme")
    O.Tool = "adolc";
  gmm::Input In = gmm::read(O.Input);
  const size_t NAlphas = In.Alphas.size(), NMeans = In.Means.size(),
               NIcf = In.Icf.size();

  auto Primal = [&] {
    return gmm::objective<double>(In.D, In.K, In.N, In.Alphas.data(),
                                  In.Means.data(), In.Icf.data(), In.X.data(),
                                  In.Gamma, In.M);
  };
  auto Objective = [&](const adouble *A) {
    return gmm::objective<adouble>(In.D, In.K, In.N, A, A + NAlphas,
                                   A + NAlphas + NMeans, In.X.data(), In.Gamma,
                                   In.M);
  };
  bench::TapedGradient Taped({{In.Alphas.data(), NAlphas},
                              {In.Means.data(), NMeans},
                              {In.Icf.data(), NIcf}});
  auto Gradient = [&] { Taped(Objective); };

  Taped.calibrate(Objective);
  Gradient();
  bench::FdCheck Check("gmm");
  Check.spread("alphas", In.Alphas.data(), Taped.gradient(0), NAlphas, 3,
               Primal);
  Check.spread("means", In.Means.data(), Taped.gradient(1), NMeans, 4, Primal);
  Check.spread("icf", In.Icf.data(), Taped.gradient(2), NIcf, 5, Primal);

  double TPrimal = bench::time_median(O, [&] { bench::Sink = Primal(); });
  double TGradient = bench::time_median(O, Gradient);
  return bench::print_result("gmm", O, TPrimal, TGradient, 1, Check);
}
