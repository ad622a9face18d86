// Below sm_80, cuda_bf16.h converts a float to bfloat16 and back with
// integer arithmetic on the float's bits (a shift, a rounding increment),
// which carries no derivative: the derivative is an error at every level,
// never a silent zero. (sm_80 and newer: bfloat16.cu.)
// REQUIRES: cuda-emulation
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate --cuda-gpu-arch=sm_75 -O0 %s -o %t.O0 2>&1 | FileCheck %s
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate --cuda-gpu-arch=sm_75 -O2 %s -o %t.O2 2>&1 | FileCheck %s
// CHECK: error: cannot differentiate 'f(float)':
// CHECK-SAME: bits
#include <cuda_bf16.h>

extern __device__ float __enzyme_autodiff(void *, ...);

__device__ float f(float X) {
  return __bfloat162float(__float2bfloat16(X * X));
}

__global__ void gradients(const float *X, float *D) {
  D[threadIdx.x] = __enzyme_autodiff((void *)f, X[threadIdx.x]);
}
