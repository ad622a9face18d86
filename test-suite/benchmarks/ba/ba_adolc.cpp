//===- ba_adolc.cpp - Bundle-adjustment Jacobian with ADOL-C --------------===//
//
// The same benchmark as ba.cpp, the Jacobian computed by ADOL-C. The
// residuals branch on values (the zero-angle case of the rotation), so each
// observation's tape is recorded again at every evaluation: per observation,
// trace_on (keeping the values for a reverse sweep), the adouble
// reprojection error of its 15 parameters, trace_off, then one reverse
// sweep per reprojection row (fos_reverse with a unit weight vector); then
// the same for its weight row.
//
// Jacobian layout as in ba.cpp: J[(2i + r)·15 + col] for reprojection row r
// of observation i (camera 0..10, point 11..13, weight 14), J[2P·15 + i] for
// its weight row.
//
// Build: clang++ -O2 -std=c++17 ba_adolc.cpp -ladolc
//
//===----------------------------------------------------------------------===//

#include <adolc/adolc.h>

#include "ba.hpp"

int main(int argc, char **argv) {
  bench::Options O = bench::parse_options(argc, argv);
  if (O.Tool == "enzyme")
    O.Tool = "adolc";
  ba::Input In = ba::read(O.Input);
  const int P = In.P;
  std::vector<double> ReprojErr((size_t)2 * P), WErr((size_t)P);
  std::vector<double> J((size_t)2 * P * ba::RowNnz + P);
  const short ReprojTag = 1, WeightTag = 2;

  auto Primal = [&] {
    ba::objective<double>(P, In.Cams.data(), In.Points.data(),
                          In.Weights.data(), In.Obs.data(), In.Feats.data(),
                          ReprojErr.data(), WErr.data());
  };
  auto Jacobian = [&] {
    double X[ba::RowNnz], Err[2];
    for (int I = 0; I < P; ++I) {
      const double *Cam = &In.Cams[(size_t)In.Obs[2 * I] * ba::CamSize];
      const double *Point = &In.Points[(size_t)In.Obs[2 * I + 1] * 3];
      std::copy(Cam, Cam + ba::CamSize, X);
      std::copy(Point, Point + 3, X + ba::CamSize);
      X[ba::CamSize + 3] = In.Weights[I];
      trace_on(ReprojTag, 1);
      {
        adouble AX[ba::RowNnz], AErr[2];
        for (int K = 0; K < ba::RowNnz; ++K)
          AX[K] <<= X[K];
        ba::reproj_error<adouble>(AX, AX + ba::CamSize, AX + ba::CamSize + 3,
                                  &In.Feats[(size_t)2 * I], AErr);
        AErr[0] >>= Err[0];
        AErr[1] >>= Err[1];
      }
      trace_off();
      for (int Row = 0; Row < 2; ++Row) {
        double U[2] = {Row == 0 ? 1.0 : 0.0, Row == 1 ? 1.0 : 0.0};
        fos_reverse(ReprojTag, 2, ba::RowNnz, U,
                    &J[((size_t)2 * I + Row) * ba::RowNnz]);
      }
    }
    double *JW = &J[(size_t)2 * P * ba::RowNnz];
    for (int I = 0; I < P; ++I) {
      double W = In.Weights[I], Err, U = 1.0;
      trace_on(WeightTag, 1);
      {
        adouble AW, AErr;
        AW <<= W;
        ba::weight_error<adouble>(&AW, &AErr);
        AErr >>= Err;
      }
      trace_off();
      fos_reverse(WeightTag, 1, 1, &U, JW + I);
    }
  };

  Jacobian();
  bench::FdCheck Check("ba");
  ba::check_jacobian(Check, In, J);

  double TPrimal = bench::time_median(O, [&] {
    Primal();
    bench::Sink = ReprojErr[0] + WErr[P - 1];
  });
  double TJacobian = bench::time_median(O, [&] {
    Jacobian();
    bench::Sink = J[0];
  });
  return bench::print_result("ba", O, TPrimal, TJacobian, 2, Check);
}
