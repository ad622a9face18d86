//===- gmm.hpp - Gaussian mixture model objective (ADBench) ---------------===//
//
// The GMM log-likelihood with a Wishart prior, from the definition in
// shared/adbench/README.md. A template over the number type so that the
// Enzyme-ABI build (double) and the ADOL-C build (adouble) run the very same
// code.
//
//===----------------------------------------------------------------------===//

#ifndef ENZYME_BENCH_GMM_HPP
#define ENZYME_BENCH_GMM_HPP

#include "../common/bench.hpp"
#include "../common/logsumexp.hpp"

#include <cmath>
#include <vector>

namespace gmm {

struct Input {
  int D = 0, K = 0, N = 0;
  std::vector<double> Alphas, Means, Icf, X;
  double Gamma = 0;
  int M = 0;

  int icfSize() const { return D * (D + 1) / 2; }
};

inline Input read(const std::string &Path) {
  bench::NumberReader R(Path);
  Input In;
  In.D = R.integer();
  In.K = R.integer();
  In.N = R.integer();
  In.Alphas.resize(In.K);
  In.Means.resize((size_t)In.K * In.D);
  In.Icf.resize((size_t)In.K * In.icfSize());
  In.X.resize((size_t)In.N * In.D);
  R.reals(In.Alphas.data(), In.Alphas.size());
  R.reals(In.Means.data(), In.Means.size());
  R.reals(In.Icf.data(), In.Icf.size());
  R.reals(In.X.data(), In.X.size());
  In.Gamma = R.real();
  In.M = R.integer();
  return In;
}

// log Gamma_d(a), the multivariate log-gamma function (a constant here).
inline double log_gamma_distrib(double A, int D) {
  double R = 0.25 * D * (D - 1) * std::log(M_PI);
  for (int J = 1; J <= D; ++J)
    R += std::lgamma(A + 0.5 * (1 - J));
  return R;
}

template <class T> T sqnorm(const T *V, int N) {
  T R = V[0] * V[0];
  for (int I = 1; I < N; ++I)
    R += V[I] * V[I];
  return R;
}

// Out = Q X with Q = diag(QDiag) + L, L strictly lower triangular, stored
// column by column.
template <class T>
void q_times_x(const T *QDiag, const T *L, int D, const T *X, T *Out) {
  for (int I = 0; I < D; ++I)
    Out[I] = QDiag[I] * X[I];
  int Index = 0;
  for (int I = 0; I < D; ++I)
    for (int J = I + 1; J < D; ++J)
      Out[J] += L[Index++] * X[I];
}

template <class T>
T objective(int D, int K, int N, const T *Alphas, const T *Means, const T *Icf,
            const double *X, double Gamma, int M) {
  const int IcfSize = D * (D + 1) / 2;
  T *QDiags = new T[(size_t)D * K];
  T *SumQs = new T[K];
  T *XCentered = new T[D];
  T *QXCentered = new T[D];
  T *MainTerm = new T[K];

  for (int Ik = 0; Ik < K; ++Ik) {
    SumQs[Ik] = 0.0;
    for (int J = 0; J < D; ++J) {
      SumQs[Ik] += Icf[Ik * IcfSize + J];
      QDiags[Ik * D + J] = exp(Icf[Ik * IcfSize + J]);
    }
  }

  T SumLse = 0.0;
  for (int Ix = 0; Ix < N; ++Ix) {
    for (int Ik = 0; Ik < K; ++Ik) {
      for (int J = 0; J < D; ++J)
        XCentered[J] = X[(size_t)Ix * D + J] - Means[Ik * D + J];
      q_times_x(QDiags + Ik * D, Icf + Ik * IcfSize + D, D, XCentered,
                QXCentered);
      MainTerm[Ik] = Alphas[Ik] + SumQs[Ik] - 0.5 * sqnorm(QXCentered, D);
    }
    SumLse += bench::logsumexp(MainTerm, K);
  }

  T LseAlphas = bench::logsumexp(Alphas, K);

  // Wishart prior.
  int NPrior = D + M + 1;
  double C = NPrior * D * (std::log(Gamma) - 0.5 * std::log(2.0)) -
             log_gamma_distrib(0.5 * NPrior, D);
  T Prior = 0.0;
  for (int Ik = 0; Ik < K; ++Ik) {
    T Frobenius = sqnorm(QDiags + Ik * D, D);
    if (D > 1)
      Frobenius += sqnorm(Icf + Ik * IcfSize + D, IcfSize - D);
    Prior += 0.5 * Gamma * Gamma * Frobenius - M * SumQs[Ik];
  }

  delete[] QDiags;
  delete[] SumQs;
  delete[] XCentered;
  delete[] QXCentered;
  delete[] MainTerm;

  double Constant = -N * D * 0.5 * std::log(2 * M_PI);
  return Constant + SumLse - N * LseAlphas + Prior - K * C;
}

} // namespace gmm

#endif // ENZYME_BENCH_GMM_HPP
