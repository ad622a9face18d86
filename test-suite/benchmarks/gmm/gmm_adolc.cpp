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

namespace {

const short Tag = 1;

} // namespace

int main(int argc, char **argv) {
  bench::Options O = bench::parse_options(argc, argv);
  if (O.Tool == "enzyme")
    O.Tool = "adolc";
  gmm::Input In = gmm::read(O.Input);

  const int D = In.D, K = In.K;
  const size_t NAlphas = In.Alphas.size(), NMeans = In.Means.size(),
               NIcf = In.Icf.size(), NVars = NAlphas + NMeans + NIcf;
  std::vector<double> Point(NVars), Grad(NVars);
  bench::TapeBuffers Buffers;

  auto Primal = [&] {
    return gmm::objective<double>(In.D, In.K, In.N, In.Alphas.data(),
                                  In.Means.data(), In.Icf.data(), In.X.data(),
                                  In.Gamma, In.M);
  };
  // Records the tape at the current parameters.
  auto Record = [&] {
    std::copy(In.Alphas.begin(), In.Alphas.end(), Point.begin());
    std::copy(In.Means.begin(), In.Means.end(), Point.begin() + NAlphas);
    std::copy(In.Icf.begin(), In.Icf.end(), Point.begin() + NAlphas + NMeans);
    Buffers.trace_on();
    {
      std::vector<adouble> Vars(NVars);
      for (size_t I = 0; I < NVars; ++I)
        Vars[I] <<= Point[I];
      const adouble *A = Vars.data();
      adouble Y = gmm::objective<adouble>(D, K, In.N, A, A + NAlphas,
                                          A + NAlphas + NMeans, In.X.data(),
                                          In.Gamma, In.M);
      double Value;
      Y >>= Value;
    }
    trace_off();
  };
  auto Gradient = [&] {
    Record();
    gradient(Tag, (int)NVars, Point.data(), Grad.data());
  };

  Buffers.calibrate(Record);
  Gradient();
  const double *DAlphas = Grad.data(), *DMeans = DAlphas + NAlphas,
               *DIcf = DMeans + NMeans;
  bench::FdCheck Check("gmm");
  Check.spread("alphas", In.Alphas.data(), DAlphas, NAlphas, 3, Primal);
  Check.spread("means", In.Means.data(), DMeans, NMeans, 4, Primal);
  Check.spread("icf", In.Icf.data(), DIcf, NIcf, 5, Primal);

  double TPrimal = bench::time_median(O, [&] { bench::Sink = Primal(); });
  double TGradient = bench::time_median(O, Gradient);
  return bench::print_result("gmm", O, TPrimal, TGradient, 1, Check);
}
