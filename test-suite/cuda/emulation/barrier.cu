// __syncthreads orders shared-memory writes and reads across the threads of
// a block, in every block, over many rounds; the reducing forms count, and
// a thread that returned early does not hold the others up.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"

constexpr int Threads = 96; // three warps
constexpr int Blocks = 3;
constexpr int Rounds = 20;

// Each round every thread adds its right neighbour's value to its own; the
// neighbour's value must be the one from the previous round.
__global__ void rotateSum(long *Out) {
  __shared__ long Value[Threads];
  int T = threadIdx.x;
  Value[T] = T + 1000 * blockIdx.x;
  __syncthreads();
  for (int R = 0; R < Rounds; ++R) {
    long Right = Value[(T + 1) % Threads];
    __syncthreads();
    Value[T] += Right;
    __syncthreads();
  }
  Out[blockIdx.x * Threads + T] = Value[T];
}

__global__ void reducingBarriers(int *Out) {
  int T = threadIdx.x;
  Out[0] = __syncthreads_count(T % 3 == 0);
  Out[1] = __syncthreads_and(T < Threads);
  Out[2] = __syncthreads_and(T != 5);
  Out[3] = __syncthreads_or(T == 17);
  Out[4] = __syncthreads_or(T > Threads);
}

// Threads past the end return before the barrier, as grid-size guards do.
__global__ void earlyReturn(int N, int *Out) {
  __shared__ int Total;
  int T = threadIdx.x;
  if (T == 0)
    Total = 0;
  __syncthreads();
  if (T >= N)
    return;
  atomicAdd(&Total, T);
  __syncthreads();
  if (T == 0)
    *Out = Total;
}

int main() {
  long *Out;
  CUDA_CHECK(cudaMallocManaged(&Out, Blocks * Threads * sizeof(long)));
  rotateSum<<<Blocks, Threads>>>(Out);
  CUDA_CHECK(cudaDeviceSynchronize());
  bool Ok = true;
  for (int B = 0; B < Blocks; ++B) {
    long Value[Threads];
    for (int T = 0; T < Threads; ++T)
      Value[T] = T + 1000 * B;
    for (int R = 0; R < Rounds; ++R) {
      long Next[Threads];
      for (int T = 0; T < Threads; ++T)
        Next[T] = Value[T] + Value[(T + 1) % Threads];
      for (int T = 0; T < Threads; ++T)
        Value[T] = Next[T];
    }
    for (int T = 0; T < Threads; ++T)
      Ok &= Out[B * Threads + T] == Value[T];
  }
  check("rotate-sum rounds", Ok);

  int *Flags;
  CUDA_CHECK(cudaMallocManaged(&Flags, 5 * sizeof(int)));
  reducingBarriers<<<1, Threads>>>(Flags);
  CUDA_CHECK(cudaDeviceSynchronize());
  check("__syncthreads_count", Flags[0] == Threads / 3);
  check("__syncthreads_and true", Flags[1] != 0);
  check("__syncthreads_and false", Flags[2] == 0);
  check("__syncthreads_or true", Flags[3] != 0);
  check("__syncthreads_or false", Flags[4] == 0);

  earlyReturn<<<1, 64>>>(40, Flags);
  CUDA_CHECK(cudaDeviceSynchronize());
  check("early return leaves the barrier", Flags[0] == 40 * 39 / 2);
  return finish();
}
