// The address-space queries (__isGlobal, __isShared, __isLocal,
// __isConstant, which CUDA code and derivatives ask) answer as on a GPU:
// device allocations, managed memory and __device__ variables are global,
// __shared__ arrays (static and dynamic) shared, a thread's own arrays
// local, __constant__ variables constant.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK: device allocation: global
// CHECK: managed memory: global
// CHECK: __device__ variable: global
// CHECK: static __shared__ array: shared
// CHECK: dynamic shared memory: shared
// CHECK: local array: local
// CHECK: __constant__ variable: constant
// CHECK: past the __constant__ variable: global
#include "../Inputs/check.h"

__device__ double DeviceTable[8];
__constant__ double ConstantTable[4] = {1, 2, 3, 4};
__device__ double AfterConstant[4];

enum Space { Global = 1, Shared = 2, Local = 4, Constant = 8 };

__device__ int spaceOf(const void *P) {
  return __isGlobal(P) * Global + __isShared(P) * Shared +
         __isLocal(P) * Local + __isConstant(P) * Constant;
}

// Thread T asks about one kind of pointer; the answers go to Out[T].
__global__ void ask(const double *Device, const double *Managed, int *Out) {
  __shared__ double Tile[32];
  extern __shared__ double Dynamic[];
  double Mine[4];
  int T = threadIdx.x;
  Tile[T] = T;
  Dynamic[T] = T;
  Mine[T % 4] = T;
  __syncthreads();
  const void *Pointers[] = {
      Device + 1,  Managed + 2,  DeviceTable + 3,   Tile + T,
      Dynamic + T, Mine + T % 4, ConstantTable + 1, AfterConstant + 1};
  if (T < 8)
    Out[T] = spaceOf(Pointers[T]) + (Mine[T % 4] == T ? 0 : 16);
}

int main() {
  double *Device, *Managed;
  int *Out;
  CUDA_CHECK(cudaMalloc(&Device, 8 * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Managed, 8 * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Out, 8 * sizeof(int)));
  ask<<<1, 32, 32 * sizeof(double)>>>(Device, Managed, Out);
  CUDA_CHECK(cudaDeviceSynchronize());
  const char *Names[] = {
      "device allocation",     "managed memory",
      "__device__ variable",   "static __shared__ array",
      "dynamic shared memory", "local array",
      "__constant__ variable", "past the __constant__ variable"};
  for (int I = 0; I < 8; ++I) {
    const char *Answer = Out[I] == Global     ? "global"
                         : Out[I] == Shared   ? "shared"
                         : Out[I] == Local    ? "local"
                         : Out[I] == Constant ? "constant"
                                              : "FAIL (several or none)";
    std::printf("%s: %s\n", Names[I], Answer);
  }
  return 0;
}
