// CUB's warp and block collectives in differentiated device code:
// cub::WarpReduce (Sum, over a whole warp, over its first lanes and over
// logical warps of 16 lanes, and Reduce with cuda::maximum),
// cub::WarpScan::InclusiveSum, cub::BlockReduce::Sum and
// cub::BlockScan::InclusiveSum and ExclusiveSum, of doubles and floats. CUB writes
// the steps of its sums as blocks of inline PTX (32-bit shuffles of a
// value's halves whose predicate guards an addition), which the engine and
// the emulation read as the IR they compute (Core/PtxStatements.h); before,
// each sum was an error ("inline assembly whose result ... carries a
// derivative"), and the emulation could not run WarpReduce's sums at all.
// Reverse mode against central differences of a host model, forward mode
// against reverse mode; -O0 and -O2.
//
// At -O0, CUB shuffles the maximum's and the block scan's values one 32-bit
// word at a time through memory (its generic ShuffleDown and ShuffleUp, a
// loop over the words): the engine unrolls the loop in its copy of the
// function, so that the words become the value's halves or bits. Before,
// these were errors, and earlier still the maximum's gradient was wrong
// there without a word.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/shuffle-harness.h"

#include <algorithm>
#include <cub/cub.cuh>

extern __device__ void __enzyme_autodiff(void *, ...);
extern __device__ void __enzyme_fwddiff(void *, ...);
__device__ int enzyme_dup, enzyme_const;

constexpr int N = 256, Threads = 128, Warps = Threads / 32;
// The partial warp sum adds the first lanes only.
constexpr int ValidLanes = 20;

// Out[i] = (sum over the warp of X^2 + sum of the warp's first ValidLanes
// lanes + max over the warp: lane 0, where CUB's warp reductions return
// them) + prefix sum of X in the warp * X[i] + (sum over the block: thread
// 0) + prefix sum of X^2 in the block + (sum of X before i in the block)^2
// + (sum of X^3 over the 16-lane logical warp: its first lane).
template <typename T> __device__ T collectives(T V) {
  using WarpReduce = cub::WarpReduce<T>;
  using WarpScan = cub::WarpScan<T>;
  using BlockReduce = cub::BlockReduce<T, Threads>;
  using BlockScan = cub::BlockScan<T, Threads>;
  __shared__ typename WarpReduce::TempStorage ReduceStorage[Warps];
  __shared__ typename WarpScan::TempStorage ScanStorage[Warps];
  __shared__ typename BlockReduce::TempStorage BlockReduceStorage;
  __shared__ typename BlockScan::TempStorage BlockScanStorage;
  int Lane = threadIdx.x % 32, Warp = threadIdx.x / 32;
  T Squares = WarpReduce(ReduceStorage[Warp]).Sum(V * V);
  T Partial = WarpReduce(ReduceStorage[Warp]).Sum(V, ValidLanes);
  T Max = WarpReduce(ReduceStorage[Warp]).Reduce(V, cuda::maximum<T>{});
  T Prefix;
  WarpScan(ScanStorage[Warp]).InclusiveSum(V, Prefix);
  T BlockSum = BlockReduce(BlockReduceStorage).Sum(V);
  T BlockPrefix = 0, Before = 0;
  BlockScan(BlockScanStorage).InclusiveSum(V * V, BlockPrefix);
  __syncthreads();
  BlockScan(BlockScanStorage).ExclusiveSum(V, Before);
  // Logical warps of 16 lanes.
  using HalfWarpReduce = cub::WarpReduce<T, 16>;
  __shared__ typename HalfWarpReduce::TempStorage HalfStorage[Threads / 16];
  T Half = HalfWarpReduce(HalfStorage[threadIdx.x / 16]).Sum(V * V * V);
  return (Lane == 0 ? Squares + Partial + Max : T(0)) + Prefix * V +
         (threadIdx.x == 0 ? BlockSum : T(0)) + BlockPrefix + Before * Before +
         (Lane % 16 == 0 ? Half : T(0));
}

__device__ void model(const double *X, double *Out, const float *FX,
                      float *FOut) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  Out[I] = collectives(X[I]);
  FOut[I] = collectives(FX[I]);
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

static void hostCollectives(const double *X, double *Out) {
  for (int Block = 0; Block < N; Block += Threads) {
    double BlockSum = 0, BlockPrefix = 0, Before = 0;
    for (int T = 0; T < Threads; ++T)
      BlockSum += X[Block + T];
    for (int W = Block; W < Block + Threads; W += 32) {
      double Squares = 0, Partial = 0, Max = X[W], Prefix = 0;
      for (int L = 0; L < 32; ++L) {
        Squares += X[W + L] * X[W + L];
        Partial += L < ValidLanes ? X[W + L] : 0;
        Max = std::max(Max, X[W + L]);
      }
      for (int L = 0; L < 32; ++L) {
        double V = X[W + L];
        Prefix += V;
        BlockPrefix += V * V;
        double Half = 0;
        for (int K = L; K < L + 16 && L % 16 == 0; ++K)
          Half += X[W + K] * X[W + K] * X[W + K];
        double Excluded = Before;
        Out[W + L] = (L == 0 ? Squares + Partial + Max : 0) + Prefix * V +
                     (W + L == Block ? BlockSum : 0) + BlockPrefix +
                     Excluded * Excluded + Half;
        Before += V;
      }
    }
  }
}

int main() {
  ShuffleArrays A = makeShuffleArrays(N, 0.3, 7);
  gradient<<<N / Threads, Threads>>>(A.X, A.DX, A.Out, A.DOut, A.FX, A.DFX,
                                     A.FOut, A.DFOut);
  CUDA_CHECK(cudaDeviceSynchronize());
  checkShuffleGradient(A, hostCollectives);
  tangent<<<N / Threads, Threads>>>(A.X, A.TX, A.Out, A.TOut, A.FX, A.TFX,
                                    A.FOut, A.TFOut);
  CUDA_CHECK(cudaDeviceSynchronize());
  checkShuffleTangent(A);
  return finish();
}
