// Warp shuffles differentiate: a shuffle's adjoint goes back to the lane it
// came from (down by d returns up by d, xor returns by the same xor, a
// broadcast or any other source lane sums the adjoints of the lanes that
// read it), and in forward mode the tangent moves as the value does. For
// doubles, which CUDA shuffles as two 32-bit halves, and floats; at -O0
// (calls of the header's shuffles) and -O2 (the halves' intrinsics).
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -mllvm -enzyme-warp-aggregated-atomics=true %s -o %t.warps && %t.warps | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// Shuffles over part of a warp: warp-shuffles-partial.cu.
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"

extern __device__ void __enzyme_autodiff(void *, ...);
extern __device__ void __enzyme_fwddiff(void *, ...);
__device__ int enzyme_dup, enzyme_const;

constexpr int N = 256;

__device__ int globalIndex() { return blockIdx.x * blockDim.x + threadIdx.x; }

// Out[i] = f(X of the lanes of i's warp), several shuffle patterns:
//   S = warp sum of X^2 by down-shuffles (lane 0 holds it),
//   A = all-reduce of X by xor-shuffles (every lane holds it),
//   P = prefix sum of X by up-shuffles,
//   G = X of lane 3 (broadcast) times X of lane (31 - lane) (permutation),
// Out[i] = S (lane 0 only) + A * X[i] + P + G, and FOut[i] the same in float.
template <typename T> __device__ T mixed(T V) {
  unsigned Lane = threadIdx.x & 31;
  T S = V * V;
  for (int O = 16; O > 0; O /= 2)
    S += __shfl_down_sync(0xffffffff, S, O);
  T A = V;
  for (int O = 1; O < 32; O *= 2)
    A += __shfl_xor_sync(0xffffffff, A, O);
  T P = V;
  for (int O = 1; O < 32; O *= 2) {
    T Up = __shfl_up_sync(0xffffffff, P, O);
    if (Lane >= O)
      P += Up;
  }
  T G = __shfl_sync(0xffffffff, V, 3) * __shfl_sync(0xffffffff, V, 31 - Lane);
  return (Lane == 0 ? S : T(0)) + A * V + P + G;
}

__device__ void model(const double *X, double *Out, const float *FX,
                      float *FOut) {
  int I = globalIndex();
  Out[I] = mixed(X[I]);
  FOut[I] = mixed(FX[I]);
}

__global__ void gradient(const double *X, double *DX, double *Out,
                         double *DOut, const float *FX, float *DFX,
                         float *FOut, float *DFOut) {
  __enzyme_autodiff((void *)model, enzyme_dup, X, DX, enzyme_dup, Out, DOut,
                    enzyme_dup, FX, DFX, enzyme_dup, FOut, DFOut);
}

__global__ void tangent(const double *X, const double *TX, double *Out,
                        double *TOut, const float *FX, const float *TFX,
                        float *FOut, float *TFOut) {
  __enzyme_fwddiff((void *)model, enzyme_dup, X, TX, enzyme_dup, Out, TOut,
                   enzyme_dup, FX, TFX, enzyme_dup, FOut, TFOut);
}

// A double copied through a shuffle: optimised code loads and stores it as
// an integer, and shuffles its halves.
__device__ void copyDown(const double *X, double *Out) {
  Out[globalIndex()] = __shfl_down_sync(0xffffffff, X[globalIndex()], 1);
}

__global__ void copyGradient(const double *X, double *DX, double *Out,
                             double *DOut) {
  __enzyme_autodiff((void *)copyDown, enzyme_dup, X, DX, enzyme_dup, Out,
                    DOut);
}

// The same function on the host, one warp at a time.
static void hostMixed(const double *V, double *Out) {
  for (int W = 0; W < N; W += 32) {
    const double *X = V + W;
    double S = 0, A = 0;
    for (int L = 0; L < 32; ++L) {
      S += X[L] * X[L];
      A += X[L];
    }
    double P = 0;
    for (int L = 0; L < 32; ++L) {
      P += X[L];
      Out[W + L] = (L == 0 ? S : 0) + A * X[L] + P + X[3] * X[31 - L];
    }
  }
}

int main() {
  double *X, *DX, *Out, *DOut;
  float *FX, *DFX, *FOut, *DFOut;
  CUDA_CHECK(cudaMallocManaged(&X, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DX, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Out, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DOut, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&FX, N * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&DFX, N * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&FOut, N * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&DFOut, N * sizeof(float)));
  double Seed[N];
  for (int I = 0; I < N; ++I) {
    X[I] = std::sin(0.37 * I);
    FX[I] = float(X[I]);
    Seed[I] = 1 + (I % 5);
    DX[I] = 0;
    DFX[I] = 0;
    DOut[I] = Seed[I];
    DFOut[I] = float(Seed[I]);
  }
  gradient<<<N / 64, 64>>>(X, DX, Out, DOut, FX, DFX, FOut, DFOut);
  CUDA_CHECK(cudaDeviceSynchronize());

  // The reference gradient of sum(Seed * Out) by central differences.
  double Primal[N], Plus[N], Minus[N], Work[N];
  hostMixed(X, Primal);
  bool PrimalOk = true, ReverseOk = true, ReverseFloatOk = true;
  for (int I = 0; I < N; ++I)
    PrimalOk &= std::fabs(Out[I] - Primal[I]) < 1e-9;
  for (int J = 0; J < N; ++J) {
    const double H = 1e-6;
    for (int I = 0; I < N; ++I)
      Work[I] = X[I];
    Work[J] = X[J] + H;
    hostMixed(Work, Plus);
    Work[J] = X[J] - H;
    hostMixed(Work, Minus);
    double Expected = 0;
    for (int I = 0; I < N; ++I)
      Expected += Seed[I] * (Plus[I] - Minus[I]) / (2 * H);
    ReverseOk &= std::fabs(DX[J] - Expected) < 1e-5 * (1 + std::fabs(Expected));
    ReverseFloatOk &=
        std::fabs(DFX[J] - Expected) < 1e-3 * (1 + std::fabs(Expected));
  }
  check("primal", PrimalOk);
  check("reverse mode, double", ReverseOk);
  check("reverse mode, float", ReverseFloatOk);

  // Forward mode along TX[i] = cos(i): against the reverse gradient.
  double *TX, *TOut;
  float *TFX, *TFOut;
  CUDA_CHECK(cudaMallocManaged(&TX, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&TOut, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&TFX, N * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&TFOut, N * sizeof(float)));
  for (int I = 0; I < N; ++I) {
    TX[I] = std::cos(I);
    TFX[I] = float(TX[I]);
  }
  tangent<<<N / 64, 64>>>(X, TX, Out, TOut, FX, TFX, FOut, TFOut);
  CUDA_CHECK(cudaDeviceSynchronize());
  double Dot = 0, DotFloat = 0, Reverse = 0;
  for (int I = 0; I < N; ++I) {
    Dot += Seed[I] * TOut[I];
    DotFloat += Seed[I] * TFOut[I];
    Reverse += DX[I] * TX[I];
  }
  checkClose("forward mode agrees with reverse mode, double", Dot, Reverse,
             1e-10);
  checkClose("forward mode agrees with reverse mode, float", DotFloat,
             Reverse, 1e-4);

  // Lane L copies lane L + 1 (the last lane of a warp keeps its own).
  for (int I = 0; I < N; ++I) {
    DX[I] = 0;
    DOut[I] = Seed[I];
  }
  copyGradient<<<N / 64, 64>>>(X, DX, Out, DOut);
  CUDA_CHECK(cudaDeviceSynchronize());
  bool CopyOk = true;
  for (int I = 0; I < N; ++I) {
    int Lane = I % 32;
    double Expected = (Lane > 0 ? Seed[I - 1] : 0) + (Lane == 31 ? Seed[I] : 0);
    CopyOk &= DX[I] == Expected;
  }
  check("a shuffled copy sends adjoints back", CopyOk);
  return finish();
}
