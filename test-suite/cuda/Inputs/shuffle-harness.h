// The checking half of the warp-shuffle tests (warp-shuffles.cu,
// warp-shuffles-partial.cu): managed arrays for a kernel computing Out from
// X in double and FOut from FX in float, and the checks of its gradient
// (against central differences of a host model of the kernel) and of its
// tangent (against the gradient).
#include "check.h"

#include <vector>

struct ShuffleArrays {
  int N;
  double *X, *DX, *Out, *DOut, *TX, *TOut;
  float *FX, *DFX, *FOut, *DFOut, *TFX, *TFOut;
  std::vector<double> Seed;
};

template <typename T> static T *managedArray(int N) {
  T *P;
  CUDA_CHECK(cudaMallocManaged(&P, N * sizeof(T)));
  return P;
}

// X[i] = sin(0.37 i) + Offset, the output's seed 1 + i % SeedPeriod, the
// tangent cos(i); adjoints start at zero.
static ShuffleArrays makeShuffleArrays(int N, double Offset, int SeedPeriod) {
  ShuffleArrays A{N};
  for (double **P : {&A.X, &A.DX, &A.Out, &A.DOut, &A.TX, &A.TOut})
    *P = managedArray<double>(N);
  for (float **P : {&A.FX, &A.DFX, &A.FOut, &A.DFOut, &A.TFX, &A.TFOut})
    *P = managedArray<float>(N);
  A.Seed.resize(N);
  for (int I = 0; I < N; ++I) {
    A.X[I] = std::sin(0.37 * I) + Offset;
    A.FX[I] = float(A.X[I]);
    A.Seed[I] = 1 + (I % SeedPeriod);
    A.DX[I] = A.DFX[I] = 0;
    A.DOut[I] = A.Seed[I];
    A.DFOut[I] = float(A.Seed[I]);
    A.TX[I] = std::cos(I);
    A.TFX[I] = float(A.TX[I]);
  }
  return A;
}

// After the gradient kernel: Out against Model(X), and DX, DFX against the
// gradient of sum(Seed * Out) by central differences of Model.
static void checkShuffleGradient(const ShuffleArrays &A,
                                 void (*Model)(const double *, double *)) {
  int N = A.N;
  std::vector<double> Primal(N), Plus(N), Minus(N), Work(A.X, A.X + N);
  Model(A.X, Primal.data());
  bool PrimalOk = true, ReverseOk = true, ReverseFloatOk = true;
  for (int I = 0; I < N; ++I)
    PrimalOk &= std::fabs(A.Out[I] - Primal[I]) < 1e-9;
  for (int J = 0; J < N; ++J) {
    const double H = 1e-6;
    Work[J] = A.X[J] + H;
    Model(Work.data(), Plus.data());
    Work[J] = A.X[J] - H;
    Model(Work.data(), Minus.data());
    Work[J] = A.X[J];
    double Expected = 0;
    for (int I = 0; I < N; ++I)
      Expected += A.Seed[I] * (Plus[I] - Minus[I]) / (2 * H);
    ReverseOk &=
        std::fabs(A.DX[J] - Expected) < 1e-5 * (1 + std::fabs(Expected));
    ReverseFloatOk &=
        std::fabs(A.DFX[J] - Expected) < 1e-3 * (1 + std::fabs(Expected));
  }
  check("primal", PrimalOk);
  check("reverse mode, double", ReverseOk);
  check("reverse mode, float", ReverseFloatOk);
}

// After the tangent kernel (and the gradient's check): Seed . TOut against
// DX . TX, in double and float.
static void checkShuffleTangent(const ShuffleArrays &A) {
  double Dot = 0, DotFloat = 0, Reverse = 0;
  for (int I = 0; I < A.N; ++I) {
    Dot += A.Seed[I] * A.TOut[I];
    DotFloat += A.Seed[I] * A.TFOut[I];
    Reverse += A.DX[I] * A.TX[I];
  }
  checkClose("forward mode agrees with reverse mode, double", Dot, Reverse,
             1e-10);
  checkClose("forward mode agrees with reverse mode, float", DotFloat,
             Reverse, 1e-4);
}
