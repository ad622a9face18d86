// In a kernel, the engine answers its own questions about the address space
// of a shadow that derives from the kernel's pointer arguments (global, as
// the NVPTX backend assumes), once the derivative is inlined there. The
// program's own questions (__isGlobal) are left to run, even about the same
// argument.
// REQUIRES: cuda
// RUN: %clangxx_enzyme -fenzyme -O2 --cuda-gpu-arch=sm_90 --cuda-device-only -S -emit-llvm %s -o - | FileCheck %s
// CHECK-LABEL: define {{.*}} @_Z8gradientPKdPdPi(
// CHECK:         call i1 @llvm.nvvm.isspacep.global(ptr %1)
// CHECK-NOT:     isspacep
// CHECK:         atomicrmw fadd ptr addrspace(1)
// CHECK-NOT:     isspacep
// CHECK:       ret void

extern __device__ void __enzyme_autodiff(void *, ...);
__device__ int enzyme_dup, enzyme_const;

__device__ double square(const double *P) { return P[0] * P[0]; }

__global__ void gradient(const double *P, double *DP, int *DPIsGlobal) {
  *DPIsGlobal = __isGlobal(DP);
  __enzyme_autodiff((void *)square, enzyme_dup, P, DP);
}
