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
#include "../Inputs/shuffle-harness.h"

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
  ShuffleArrays A = makeShuffleArrays(N, 0, 5);
  gradient<<<N / 64, 64>>>(A.X, A.DX, A.Out, A.DOut, A.FX, A.DFX, A.FOut,
                           A.DFOut);
  CUDA_CHECK(cudaDeviceSynchronize());
  checkShuffleGradient(A, hostMixed);
  tangent<<<N / 64, 64>>>(A.X, A.TX, A.Out, A.TOut, A.FX, A.TFX, A.FOut,
                          A.TFOut);
  CUDA_CHECK(cudaDeviceSynchronize());
  checkShuffleTangent(A);

  // Lane L copies lane L + 1 (the last lane of a warp keeps its own).
  for (int I = 0; I < N; ++I) {
    A.DX[I] = 0;
    A.DOut[I] = A.Seed[I];
  }
  copyGradient<<<N / 64, 64>>>(A.X, A.DX, A.Out, A.DOut);
  CUDA_CHECK(cudaDeviceSynchronize());
  bool CopyOk = true;
  for (int I = 0; I < N; ++I) {
    int Lane = I % 32;
    double Expected =
        (Lane > 0 ? A.Seed[I - 1] : 0) + (Lane == 31 ? A.Seed[I] : 0);
    CopyOk &= A.DX[I] == Expected;
  }
  check("a shuffled copy sends adjoints back", CopyOk);
  return finish();
}
