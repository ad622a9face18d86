// Block-level cooperative groups (this_thread_block, tiled_partition and its
// shuffles, reductions) build on barriers and warp collectives, at -O0 too.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__global__ void groups(const int *In, int *Out) {
  cg::thread_block Block = cg::this_thread_block();
  __shared__ int Shared[128];
  Shared[Block.thread_rank()] = In[Block.thread_rank()];
  Block.sync();
  cg::thread_block_tile<32> Warp = cg::tiled_partition<32>(Block);
  int Neighbour = Shared[(Block.thread_rank() + 1) % Block.size()];
  int First = Warp.shfl(Neighbour, 0);
  int Sum = cg::reduce(Warp, Neighbour, cg::plus<int>());
  cg::thread_block_tile<8> Eight = cg::tiled_partition<8>(Block);
  int Max = cg::reduce(Eight, Neighbour, cg::greater<int>());
  Out[3 * Block.thread_rank()] = First;
  Out[3 * Block.thread_rank() + 1] = Sum;
  Out[3 * Block.thread_rank() + 2] = Max;
}

int main() {
  int *In, *Out;
  CUDA_CHECK(cudaMallocManaged(&In, 128 * sizeof(int)));
  CUDA_CHECK(cudaMallocManaged(&Out, 3 * 128 * sizeof(int)));
  for (int I = 0; I < 128; ++I)
    In[I] = (I * 37) % 101;
  groups<<<1, 128>>>(In, Out);
  CUDA_CHECK(cudaDeviceSynchronize());
  bool First = true, Sum = true, Max = true;
  for (int T = 0; T < 128; ++T) {
    auto Neighbour = [&](int R) { return In[(R + 1) % 128]; };
    int W = T / 32 * 32, E = T / 8 * 8;
    int S = 0, M = -1;
    for (int L = 0; L < 32; ++L)
      S += Neighbour(W + L);
    for (int L = 0; L < 8; ++L)
      M = Neighbour(E + L) > M ? Neighbour(E + L) : M;
    First &= Out[3 * T] == Neighbour(W);
    Sum &= Out[3 * T + 1] == S;
    Max &= Out[3 * T + 2] == M;
  }
  check("tile shfl", First);
  check("tile reduce plus", Sum);
  check("tile of 8 reduce greater", Max);
  return finish();
}
