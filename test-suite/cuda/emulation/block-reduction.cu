// A block reduction: a shared-memory tree down to one warp, then shuffles,
// then one atomicAdd per block; grids of one and of many blocks.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"

template <int BlockSize>
__global__ void sumSquares(const double *X, int N, double *Total) {
  __shared__ double Partial[BlockSize];
  int T = threadIdx.x;
  double Mine = 0;
  for (int I = blockIdx.x * BlockSize + T; I < N; I += gridDim.x * BlockSize)
    Mine += X[I] * X[I];
  Partial[T] = Mine;
  __syncthreads();
  for (int Stride = BlockSize / 2; Stride >= 32; Stride /= 2) {
    if (T < Stride)
      Partial[T] += Partial[T + Stride];
    __syncthreads();
  }
  if (T < 32) {
    double V = Partial[T];
    for (int Offset = 16; Offset > 0; Offset /= 2)
      V += __shfl_down_sync(0xffffffff, V, Offset);
    if (T == 0)
      atomicAdd(Total, V);
  }
}

int main() {
  const int N = 10007;
  double *X, *Total;
  CUDA_CHECK(cudaMallocManaged(&X, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Total, sizeof(double)));
  double Expected = 0;
  for (int I = 0; I < N; ++I) {
    X[I] = std::sin(0.1 * I);
    Expected += X[I] * X[I];
  }
  for (int Blocks : {1, 7, 40}) {
    *Total = 0;
    sumSquares<256><<<Blocks, 256>>>(X, N, Total);
    CUDA_CHECK(cudaDeviceSynchronize());
    char Name[64];
    std::snprintf(Name, sizeof Name, "sum of squares, %d blocks", Blocks);
    checkClose(Name, *Total, Expected, 1e-12);
  }
  *Total = 0;
  sumSquares<64><<<3, 64>>>(X, N, Total);
  CUDA_CHECK(cudaDeviceSynchronize());
  checkClose("sum of squares, blocks of 64", *Total, Expected, 1e-12);
  return finish();
}
