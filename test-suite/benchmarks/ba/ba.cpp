//===- ba.cpp - Bundle-adjustment Jacobian through the Enzyme ABI ---------===//
//
// The sparse Jacobian of the BA residuals, computed as ADBench does: per
// observation, one reverse sweep per reprojection row (the 2-element error
// output seeded with a unit vector), giving the row's 15 nonzeros, then one
// for the weight row.
//
// Jacobian layout (flat array J of 2P·15 + P values):
//   J[(2i + r)·15 + col], r = 0, 1: row r of the reprojection error of
//     observation i; col 0..10 its camera's parameters, 11..13 its point's,
//     14 its weight;
//   J[2P·15 + i]: the weight row of observation i (d w_err_i / d w_i).
//
// Forward mode: one __enzyme_fwddiff of the whole objective along a random
// direction of cameras, points and weights gives J·v for every residual; it
// is checked against central differences along v on a few residuals and
// against the reverse-mode Jacobian above, row by row (<e_row, J v> =
// <J^T e_row, v>).
//
//===----------------------------------------------------------------------===//

#include "ba.hpp"
#include "../common/enzyme_abi.hpp"

int main(int argc, char **argv) {
  bench::Options O = bench::parse_options(argc, argv);
  ba::Input In = ba::read(O.Input);
  const int P = In.P;
  std::vector<double> ReprojErr((size_t)2 * P), WErr((size_t)P);
  std::vector<double> J((size_t)2 * P * ba::RowNnz + P);

  auto Primal = [&] {
    ba::objective<double>(P, In.Cams.data(), In.Points.data(),
                          In.Weights.data(), In.Obs.data(), In.Feats.data(),
                          ReprojErr.data(), WErr.data());
  };
  auto Jacobian = [&] {
    double Err[2], Seed[2];
    for (int I = 0; I < P; ++I) {
      const double *Cam = &In.Cams[(size_t)In.Obs[2 * I] * ba::CamSize];
      const double *Point = &In.Points[(size_t)In.Obs[2 * I + 1] * 3];
      const double *Feat = &In.Feats[(size_t)2 * I];
      for (int Row = 0; Row < 2; ++Row) {
        double *JRow = &J[((size_t)2 * I + Row) * ba::RowNnz];
        std::fill(JRow, JRow + ba::RowNnz, 0.0); // shadows accumulate
        Seed[0] = Row == 0;
        Seed[1] = Row == 1;
        __enzyme_autodiff((void *)ba::reproj_error<double>, enzyme_dup, Cam,
                          JRow, enzyme_dup, Point, JRow + ba::CamSize,
                          enzyme_dup, &In.Weights[I], JRow + ba::CamSize + 3,
                          enzyme_const, Feat, enzyme_dupnoneed, Err, Seed);
      }
    }
    double *JW = &J[(size_t)2 * P * ba::RowNnz];
    for (int I = 0; I < P; ++I) {
      double Err, Seed = 1.0;
      JW[I] = 0.0;
      __enzyme_autodiff((void *)ba::weight_error<double>, enzyme_dup,
                        &In.Weights[I], JW + I, enzyme_dupnoneed, &Err, &Seed);
    }
  };

  Jacobian();
  bench::FdCheck Check("ba");
  ba::check_jacobian(Check, In, J);

  std::vector<double> VCams = bench::random_direction(In.Cams.size(), 1),
                      VPoints = bench::random_direction(In.Points.size(), 2),
                      VWeights = bench::random_direction(In.Weights.size(), 3);
  std::vector<double> DReproj((size_t)2 * P), DWErr((size_t)P);
  auto Tangent = [&] {
    __enzyme_fwddiff_void((void *)ba::objective<double>, enzyme_const, P,
                          enzyme_dup, In.Cams.data(), VCams.data(), enzyme_dup,
                          In.Points.data(), VPoints.data(), enzyme_dup,
                          In.Weights.data(), VWeights.data(), enzyme_const,
                          In.Obs.data(), enzyme_const, In.Feats.data(),
                          enzyme_dup, ReprojErr.data(), DReproj.data(),
                          enzyme_dup, WErr.data(), DWErr.data());
  };
  Tangent();
  bench::FdCheck FwdCheck("ba forward");
  const std::initializer_list<bench::FdCheck::Along> Along = {
      {In.Cams.data(), VCams.data(), VCams.size()},
      {In.Points.data(), VPoints.data(), VPoints.size()},
      {In.Weights.data(), VWeights.data(), VWeights.size()}};
  for (int I : {0, P / 3, P - 1}) {
    for (int Row = 0; Row < 2; ++Row) {
      char Name[64];
      std::snprintf(Name, sizeof Name, "(J v)[reproj %d]", 2 * I + Row);
      FwdCheck.directional(Name, Along, DReproj[(size_t)2 * I + Row], [&] {
        Primal();
        return ReprojErr[(size_t)2 * I + Row];
      });
    }
    char Name[64];
    std::snprintf(Name, sizeof Name, "(J v)[w_err %d]", I);
    FwdCheck.directional(Name, Along, DWErr[I], [&] {
      Primal();
      return WErr[I];
    });
  }
  // Every row of J v against the reverse-mode Jacobian's row times v.
  for (int I = 0; I < P; ++I) {
    for (int Row = 0; Row < 2; ++Row) {
      const double *JRow = &J[((size_t)2 * I + Row) * ba::RowNnz];
      bench::Dot RowV;
      RowV.add(JRow, &VCams[(size_t)In.Obs[2 * I] * ba::CamSize], ba::CamSize);
      RowV.add(JRow + ba::CamSize, &VPoints[(size_t)In.Obs[2 * I + 1] * 3], 3);
      RowV.add(JRow + ba::CamSize + 3, &VWeights[I], 1);
      char Name[64];
      std::snprintf(Name, sizeof Name, "(J v)[reproj %d]", 2 * I + Row);
      FwdCheck.agree(Name, DReproj[(size_t)2 * I + Row], RowV.Sum, RowV.Scale);
    }
    double WRowV = J[(size_t)2 * P * ba::RowNnz + I] * VWeights[I];
    FwdCheck.agree("(J v)[w_err]", DWErr[I], WRowV, std::fabs(WRowV));
  }

  // Vector mode: eight directions in one call (lane 0 is v), each lane
  // checked against the reverse-mode Jacobian, row by row. DReproj8 and
  // DWErr8 are the outputs' eight shadows (the call overwrites them).
  bench::Directions8 WCams(In.Cams.size(), 1), WPoints(In.Points.size(), 2),
      WWeights(In.Weights.size(), 3);
  bench::Directions8 DReproj8((size_t)2 * P, 0), DWErr8((size_t)P, 0);
  auto Tangent8 = [&] {
    __enzyme_fwddiff_void(
        (void *)ba::objective<double>, enzyme_width, 8, enzyme_const, P,
        enzyme_dup, In.Cams.data(), ENZYME_BENCH_LANES(WCams.Ptr), enzyme_dup,
        In.Points.data(), ENZYME_BENCH_LANES(WPoints.Ptr), enzyme_dup,
        In.Weights.data(), ENZYME_BENCH_LANES(WWeights.Ptr), enzyme_const,
        In.Obs.data(), enzyme_const, In.Feats.data(), enzyme_dup,
        ReprojErr.data(), ENZYME_BENCH_LANES(DReproj8.Ptr), enzyme_dup,
        WErr.data(), ENZYME_BENCH_LANES(DWErr8.Ptr));
  };
  Tangent8();
  for (int K = 0; K < 8; ++K) {
    for (int I = 0; I < P; ++I) {
      for (int Row = 0; Row < 2; ++Row) {
        const double *JRow = &J[((size_t)2 * I + Row) * ba::RowNnz];
        bench::Dot RowV;
        RowV.add(JRow, &WCams.Lane[K][(size_t)In.Obs[2 * I] * ba::CamSize],
                 ba::CamSize);
        RowV.add(JRow + ba::CamSize,
                 &WPoints.Lane[K][(size_t)In.Obs[2 * I + 1] * 3], 3);
        RowV.add(JRow + ba::CamSize + 3, &WWeights.Lane[K][I], 1);
        char Name[64];
        std::snprintf(Name, sizeof Name, "(J v_%d)[reproj %d] (width 8)", K,
                      2 * I + Row);
        FwdCheck.agree(Name, DReproj8.Lane[K][(size_t)2 * I + Row], RowV.Sum,
                       RowV.Scale);
      }
      double WRowV = J[(size_t)2 * P * ba::RowNnz + I] * WWeights.Lane[K][I];
      FwdCheck.agree("(J v_k)[w_err] (width 8)", DWErr8.Lane[K][I], WRowV,
                     std::fabs(WRowV));
    }
  }

  double TPrimal = bench::time_median(O, [&] {
    Primal();
    bench::Sink = ReprojErr[0] + WErr[P - 1];
  });
  double TJacobian = bench::time_median(O, [&] {
    Jacobian();
    bench::Sink = J[0];
  });
  double TJvp = bench::time_median(O, [&] {
    Tangent();
    bench::Sink = DReproj[0] + DWErr[P - 1];
  });
  double TJvp8 = bench::time_median(O, [&] {
    Tangent8();
    bench::Sink = DReproj8.Lane[7][0] + DWErr8.Lane[7][P - 1];
  });
  int Status =
      bench::print_forward_result("ba", O, TPrimal, TJvp, FwdCheck, TJvp8);
  return bench::print_result("ba", O, TPrimal, TJacobian, 2, Check) | Status;
}
