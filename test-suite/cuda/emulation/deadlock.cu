// A barrier that half a warp reaches while the other half waits in a warp
// shuffle can never complete; the emulator stops with a report instead of
// hanging. (Emulation only: a GPU hangs or gives undefined results.)
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fcuda-emulate -O2 %s -o %t
// RUN: not --crash %t 2>&1 | FileCheck %s
// CHECK: CUDA emulation: deadlock in kernel '_Z8divergedPi', block (0,0,0): all 32 running threads wait (16 at __syncthreads, 16 at warp operations
// CHECK: warp 0: a warp operation with mask 0xffffffff has lanes 0xffff0000 of 0xffffffff
#include "../Inputs/check.h"

__global__ void diverged(int *Out) {
  int Value = threadIdx.x;
  if (threadIdx.x < 16)
    __syncthreads();
  else
    Value = __shfl_sync(0xffffffff, Value, 0);
  Out[threadIdx.x] = Value;
}

int main() {
  int *Out;
  CUDA_CHECK(cudaMallocManaged(&Out, 64 * sizeof(int)));
  diverged<<<1, 32>>>(Out);
  cudaDeviceSynchronize();
  std::printf("not reached\n");
  return 0;
}
