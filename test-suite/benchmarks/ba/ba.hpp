//===- ba.hpp - Bundle adjustment residuals (ADBench) ---------------------===//
//
// The bundle-adjustment residuals, from the definition in
// shared/adbench/README.md. Templates over the number type so that the
// Enzyme-ABI build (double) and the ADOL-C build (adouble) run the very same
// code.
//
// A camera is 11 numbers: Rodrigues rotation r[3], centre c[3], focal f,
// principal point x0[2], radial distortion k[2]. A point is 3 numbers, a
// weight 1, a feature 2. Observation i uses camera Obs[2i] and point
// Obs[2i+1]; it has two reprojection residuals and one weight residual.
//
//===----------------------------------------------------------------------===//

#ifndef ENZYME_BENCH_BA_HPP
#define ENZYME_BENCH_BA_HPP

#include "../common/bench.hpp"

#include <cmath>
#include <vector>

namespace ba {

constexpr int CamSize = 11;
constexpr int RotIdx = 0, CentreIdx = 3, FocalIdx = 6, X0Idx = 7, RadIdx = 9;
// Nonzeros of one reprojection row of the Jacobian: 11 camera, 3 point and
// 1 weight columns, in that order.
constexpr int RowNnz = CamSize + 3 + 1;

struct Input {
  int N = 0, M = 0, P = 0; // cameras, points, observations
  std::vector<double> Cams, Points, Weights, Feats;
  std::vector<int> Obs; // 2 per observation: camera, point
};

// The files hold one camera, point, weight and feature, replicated: every
// camera is the one camera, and so on; observation i uses camera i mod n and
// point i mod m.
inline Input read(const std::string &Path) {
  bench::NumberReader R(Path);
  Input In;
  In.N = R.integer();
  In.M = R.integer();
  In.P = R.integer();
  double Cam[CamSize], Point[3], Weight, Feat[2];
  R.reals(Cam, CamSize);
  R.reals(Point, 3);
  Weight = R.real();
  R.reals(Feat, 2);

  In.Cams.resize((size_t)In.N * CamSize);
  for (size_t I = 0; I < (size_t)In.N; ++I)
    std::copy(Cam, Cam + CamSize, In.Cams.begin() + I * CamSize);
  In.Points.resize((size_t)In.M * 3);
  for (size_t I = 0; I < (size_t)In.M; ++I)
    std::copy(Point, Point + 3, In.Points.begin() + I * 3);
  In.Weights.assign((size_t)In.P, Weight);
  In.Feats.resize((size_t)In.P * 2);
  In.Obs.resize((size_t)In.P * 2);
  for (size_t I = 0; I < (size_t)In.P; ++I) {
    In.Feats[2 * I] = Feat[0];
    In.Feats[2 * I + 1] = Feat[1];
    In.Obs[2 * I] = (int)(I % In.N);
    In.Obs[2 * I + 1] = (int)(I % In.M);
  }
  return In;
}

template <class T> void cross(const T *A, const T *B, T *Out) {
  Out[0] = A[1] * B[2] - A[2] * B[1];
  Out[1] = A[2] * B[0] - A[0] * B[2];
  Out[2] = A[0] * B[1] - A[1] * B[0];
}

// Out = R(Rot) X, R the rotation of axis Rot/|Rot| and angle |Rot|
// (Rodrigues' formula); near zero angle, the first-order R = I + [Rot]x.
template <class T> void rodrigues_rotate(const T *Rot, const T *X, T *Out) {
  T SqTheta = Rot[0] * Rot[0] + Rot[1] * Rot[1] + Rot[2] * Rot[2];
  if (SqTheta != 0.0) {
    T Theta = sqrt(SqTheta);
    T CosT = cos(Theta), SinT = sin(Theta);
    T Axis[3], AxisCrossX[3];
    for (int I = 0; I < 3; ++I)
      Axis[I] = Rot[I] / Theta;
    cross(Axis, X, AxisCrossX);
    T Along = (Axis[0] * X[0] + Axis[1] * X[1] + Axis[2] * X[2]) * (1.0 - CosT);
    for (int I = 0; I < 3; ++I)
      Out[I] = X[I] * CosT + AxisCrossX[I] * SinT + Axis[I] * Along;
  } else {
    T RotCrossX[3];
    cross(Rot, X, RotCrossX);
    for (int I = 0; I < 3; ++I)
      Out[I] = X[I] + RotCrossX[I];
  }
}

// P *= 1 + k1 |P|^2 + k2 |P|^4.
template <class T> void radial_distort(const T *K, T *P) {
  T RSq = P[0] * P[0] + P[1] * P[1];
  T L = 1.0 + K[0] * RSq + K[1] * RSq * RSq;
  P[0] *= L;
  P[1] *= L;
}

// The two reprojection residuals of one observation.
template <class T>
void reproj_error(const T *Cam, const T *X, const T *W, const double *Feat,
                  T *Err) {
  T XC[3], Y[3];
  for (int I = 0; I < 3; ++I)
    XC[I] = X[I] - Cam[CentreIdx + I];
  rodrigues_rotate(Cam + RotIdx, XC, Y);
  T P[2] = {Y[0] / Y[2], Y[1] / Y[2]};
  radial_distort(Cam + RadIdx, P);
  for (int I = 0; I < 2; ++I)
    Err[I] = *W * (Cam[FocalIdx] * P[I] + Cam[X0Idx + I] - Feat[I]);
}

// The weight residual of one observation.
template <class T> void weight_error(const T *W, T *Err) {
  *Err = 1.0 - *W * *W;
}

// All residuals: ReprojErr (2 per observation) and WErr (1 per observation).
template <class T>
void objective(int P, const T *Cams, const T *Points, const T *Weights,
               const int *Obs, const double *Feats, T *ReprojErr, T *WErr) {
  for (int I = 0; I < P; ++I)
    reproj_error(Cams + (size_t)Obs[2 * I] * CamSize,
                 Points + (size_t)Obs[2 * I + 1] * 3, Weights + I,
                 Feats + (size_t)2 * I, ReprojErr + (size_t)2 * I);
  for (int I = 0; I < P; ++I)
    weight_error(Weights + I, WErr + I);
}

// Column Col (0..RowNnz) of a reprojection row of observation I: the
// parameter it differentiates with respect to.
inline double *column_param(Input &In, int I, int Col) {
  if (Col < CamSize)
    return &In.Cams[(size_t)In.Obs[2 * I] * CamSize + Col];
  if (Col < CamSize + 3)
    return &In.Points[(size_t)In.Obs[2 * I + 1] * 3 + (Col - CamSize)];
  return &In.Weights[I];
}

// Checks a few entries of the Jacobian J against central differences:
// reprojection rows at J[(2i + r) * RowNnz + col], weight rows at
// J[2P * RowNnz + i] (the layout both mains use).
inline void check_jacobian(bench::FdCheck &Check, Input &In,
                           const std::vector<double> &J) {
  const int P = In.P;
  const int ObsToCheck[] = {0, P / 3, P - 1};
  const int Cols[] = {0, 2, 4, 6, 7, 9, 10, 11, 13, 14};
  for (int I : ObsToCheck) {
    for (int Row = 0; Row < 2; ++Row) {
      for (int Col : Cols) {
        auto Residual = [&] {
          double Err[2];
          reproj_error<double>(&In.Cams[(size_t)In.Obs[2 * I] * CamSize],
                               &In.Points[(size_t)In.Obs[2 * I + 1] * 3],
                               &In.Weights[I], &In.Feats[(size_t)2 * I], Err);
          return Err[Row];
        };
        char Name[64];
        std::snprintf(Name, sizeof Name, "reproj[obs %d, row %d, col %d]", I,
                      Row, Col);
        Check.component(Name, column_param(In, I, Col),
                        J[((size_t)2 * I + Row) * RowNnz + Col], Residual);
      }
    }
    auto WResidual = [&] {
      double Err;
      weight_error<double>(&In.Weights[I], &Err);
      return Err;
    };
    char Name[64];
    std::snprintf(Name, sizeof Name, "w_err[obs %d]", I);
    Check.component(Name, &In.Weights[I], J[(size_t)2 * P * RowNnz + I],
                    WResidual);
  }
}

} // namespace ba

#endif // ENZYME_BENCH_BA_HPP
