// Atomics under contention: every thread of several blocks updates the same
// few addresses, so lost updates would show in the totals.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"

constexpr int Blocks = 4, Threads = 128, Repeats = 50;

struct Totals {
  int Int;
  unsigned Wrapped;
  float Float;
  double Double;
  int Max, Min;
  unsigned long long Product;
  int Exchanged;
  unsigned Decremented;
};

// An atomic multiply built from compare-and-swap, as CUDA code does for
// operations without a hardware atomic.
__device__ unsigned long long atomicMultiply(unsigned long long *Address,
                                             unsigned long long By) {
  unsigned long long Old = *Address, Assumed;
  do {
    Assumed = Old;
    Old = atomicCAS(Address, Assumed, Assumed * By);
  } while (Old != Assumed);
  return Old;
}

__global__ void contend(Totals *T) {
  int Id = blockIdx.x * blockDim.x + threadIdx.x;
  for (int R = 0; R < Repeats; ++R) {
    atomicAdd(&T->Int, 1);
    atomicAdd(&T->Float, 0.5f);
    atomicAdd(&T->Double, 0.25);
    atomicInc(&T->Wrapped, 999);
  }
  atomicMax(&T->Max, Id);
  atomicMin(&T->Min, Id - 7);
  if (Id < 40)
    atomicMultiply(&T->Product, 3);
  atomicExch(&T->Exchanged, Id);
  atomicDec(&T->Decremented, 1000000);
}

int main() {
  Totals *T;
  CUDA_CHECK(cudaMallocManaged(&T, sizeof(Totals)));
  *T = Totals{0, 0, 0, 0, -1, 1 << 30, 1, -1, 500};
  contend<<<Blocks, Threads>>>(T);
  CUDA_CHECK(cudaDeviceSynchronize());
  const long Updates = long(Blocks) * Threads * Repeats;
  check("atomicAdd int", T->Int == Updates);
  check("atomicAdd float", T->Float == 0.5f * Updates);
  check("atomicAdd double", T->Double == 0.25 * Updates);
  check("atomicInc wraps", T->Wrapped == Updates % 1000);
  check("atomicMax", T->Max == Blocks * Threads - 1);
  check("atomicMin", T->Min == -7);
  unsigned long long Power = 1;
  for (int I = 0; I < 40; ++I)
    Power *= 3;
  check("atomicCAS loop", T->Product == Power);
  check("atomicExch leaves some thread's id",
        T->Exchanged >= 0 && T->Exchanged < Blocks * Threads);
  // 500 decrements reach 0, the next wraps to the limit, 11 more follow.
  check("atomicDec wraps", T->Decremented == 1000000 - 11);
  return finish();
}
