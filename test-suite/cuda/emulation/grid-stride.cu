// A grid-stride loop: fewer threads than elements, 3-D blocks and a 2-D
// grid, so every index register and dimension takes part.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"

__global__ void axpy(long N, double A, const double *X, double *Y, int *Hits) {
  long Block = blockIdx.y * gridDim.x + blockIdx.x;
  long Thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  long PerBlock = blockDim.x * blockDim.y * blockDim.z;
  long Stride = PerBlock * gridDim.x * gridDim.y;
  for (long I = Block * PerBlock + Thread; I < N; I += Stride) {
    Y[I] += A * X[I];
    atomicAdd(&Hits[I], 1);
  }
}

int main() {
  const long N = 100003;
  double *X, *Y;
  int *Hits;
  CUDA_CHECK(cudaMallocManaged(&X, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Y, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Hits, N * sizeof(int)));
  for (long I = 0; I < N; ++I) {
    X[I] = I;
    Y[I] = 1;
  }
  CUDA_CHECK(cudaMemset(Hits, 0, N * sizeof(int)));
  axpy<<<dim3(3, 2), dim3(8, 4, 2)>>>(N, 0.5, X, Y, Hits);
  CUDA_CHECK(cudaDeviceSynchronize());
  bool Values = true, Once = true;
  for (long I = 0; I < N; ++I) {
    Values &= Y[I] == 1 + 0.5 * I;
    Once &= Hits[I] == 1;
  }
  check("grid-stride axpy", Values);
  check("each element visited once", Once);
  return finish();
}
