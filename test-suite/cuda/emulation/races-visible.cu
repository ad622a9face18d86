// Threads of a block really run at the same time under emulation, so a
// missing __syncthreads shows: a thread reads its neighbour's shared value
// before the (delayed) neighbour wrote it, and sees the all-ones bytes that
// fresh shared memory holds. With the barrier the values are right.
// (Emulation only: on a GPU the stale value is whatever memory held.)
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// CHECK: without the barrier: thread 1 read a stale value
// CHECK: with the barrier: thread 1 read 0
#include "../Inputs/check.h"

template <bool Barrier> __global__ void neighbour(float *Out) {
  __shared__ float Value[64];
  if (threadIdx.x == 0) {
    // Thread 0 is late; everybody else is already reading.
    long long Start = clock64();
    while (clock64() - Start < 200000000) {
    }
  }
  Value[threadIdx.x] = threadIdx.x;
  if (Barrier)
    __syncthreads();
  Out[threadIdx.x] = Value[(threadIdx.x + 63) % 64];
}

int main() {
  float *Out;
  CUDA_CHECK(cudaMallocManaged(&Out, 64 * sizeof(float)));
  neighbour<false><<<1, 64>>>(Out);
  CUDA_CHECK(cudaDeviceSynchronize());
  if (std::isnan(Out[1]))
    std::printf("without the barrier: thread 1 read a stale value\n");
  else
    std::printf("without the barrier: thread 1 read %g\n", Out[1]);
  neighbour<true><<<1, 64>>>(Out);
  CUDA_CHECK(cudaDeviceSynchronize());
  std::printf("with the barrier: thread 1 read %g\n", Out[1]);
  return 0;
}
