// A block-wide reduction through a __shared__ array with __syncthreads,
// differentiated in device code. The array gets a shadow in shared memory,
// zeroed where the forward pass writes (shared memory starts as garbage:
// all-ones bytes under emulation), every barrier is mirrored in the
// reverse pass, and adjoint additions into the shadow are atomic. Checked
// against the analytic gradient (reverse) and directional derivative
// (forward), at -O0 and -O2.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// RUN: %clangxx_enzyme -fenzyme -O2 -mllvm -enzyme-inline-device-derivatives=false --cuda-device-only -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// CHECK-NOT: FAIL
// CHECK: all checks passed
// IR: @_ZZ15blockSumSquaresPKdPdE3Buf.shadow = internal addrspace(3) global [256 x double] undef
// IR-LABEL: define internal void @_Z15blockSumSquaresPKdPd.grad(
// Forward: the store to the array zeroes the shadow's element.
// IR:         store double 0.000000e+00, ptr
// IR:         call void @llvm.nvvm.barrier0()
// Reverse: adjoints added into the shadow, then the mirrored barrier.
// IR:         atomicrmw fadd ptr {{.*}}Buf.shadow
// IR:         call void @llvm.nvvm.barrier0()
// IR:       ret void
#include "../Inputs/check.h"

extern __device__ void __enzyme_autodiff(void *, ...);
extern __device__ void __enzyme_fwddiff(void *, ...);
__device__ int enzyme_dup, enzyme_const;

constexpr int Threads = 256, Blocks = 4;

// Out[b] = sum over the block's elements of X[i]^2.
__device__ void blockSumSquares(const double *X, double *Out) {
  __shared__ double Buf[Threads];
  int T = threadIdx.x;
  double V = X[blockIdx.x * blockDim.x + T];
  Buf[T] = V * V;
  __syncthreads();
  for (int S = blockDim.x / 2; S > 0; S /= 2) {
    if (T < S)
      Buf[T] += Buf[T + S];
    __syncthreads();
  }
  if (T == 0)
    Out[blockIdx.x] = Buf[0];
}

__global__ void gradient(const double *X, double *DX, double *Out,
                         double *DOut) {
  __enzyme_autodiff((void *)blockSumSquares, enzyme_dup, X, DX, enzyme_dup,
                    Out, DOut);
}

__global__ void tangent(const double *X, const double *TX, double *Out,
                        double *TOut) {
  __enzyme_fwddiff((void *)blockSumSquares, enzyme_dup, X, TX, enzyme_dup,
                   Out, TOut);
}

int main() {
  const int N = Threads * Blocks;
  double *X, *DX, *Out, *DOut;
  CUDA_CHECK(cudaMallocManaged(&X, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DX, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Out, Blocks * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DOut, Blocks * sizeof(double)));
  for (int I = 0; I < N; ++I) {
    X[I] = 0.01 * I - 3;
    DX[I] = 0;
  }
  for (int B = 0; B < Blocks; ++B)
    DOut[B] = 1 + B;
  gradient<<<Blocks, Threads>>>(X, DX, Out, DOut);
  CUDA_CHECK(cudaDeviceSynchronize());
  bool GradientOk = true, PrimalOk = true;
  for (int B = 0; B < Blocks; ++B) {
    double Sum = 0;
    for (int I = B * Threads; I < (B + 1) * Threads; ++I)
      Sum += X[I] * X[I];
    PrimalOk &= std::fabs(Out[B] - Sum) <= 1e-9 * Sum;
  }
  for (int I = 0; I < N; ++I)
    GradientOk &= std::fabs(DX[I] - 2 * X[I] * (1 + I / Threads)) < 1e-12;
  check("reverse mode: primal sums", PrimalOk);
  check("reverse mode: gradient", GradientOk);

  // Forward mode: direction TX[i] = i mod 7.
  double *TX, *TOut;
  CUDA_CHECK(cudaMallocManaged(&TX, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&TOut, Blocks * sizeof(double)));
  for (int I = 0; I < N; ++I)
    TX[I] = I % 7;
  tangent<<<Blocks, Threads>>>(X, TX, Out, TOut);
  CUDA_CHECK(cudaDeviceSynchronize());
  bool TangentOk = true;
  for (int B = 0; B < Blocks; ++B) {
    double Expected = 0;
    for (int I = B * Threads; I < (B + 1) * Threads; ++I)
      Expected += 2 * X[I] * TX[I];
    TangentOk &= std::fabs(TOut[B] - Expected) <= 1e-9 * std::fabs(Expected);
  }
  check("forward mode: directional derivatives", TangentOk);
  return finish();
}
