// A device function with a per-thread array indexed by data: the array
// stays in memory (local memory on the GPU), its shadow is made on the
// device heap with malloc (device code has no aligned_alloc) and freed in
// the reverse pass. Checked against the analytic gradient, -O0 and -O2.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"

extern __device__ void __enzyme_autodiff(void *, ...);
__device__ int enzyme_dup, enzyme_const;

constexpr int Bins = 8, PerThread = 16;

// Out[t] = sum over bins b of Bin[b]^2, where thread t's values X[t][i]
// are added into the bin Index[t][i] chooses.
__device__ void histogram(const double *X, const int *Index, double *Out) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  double Bin[Bins] = {};
  for (int I = 0; I < PerThread; ++I)
    Bin[Index[T * PerThread + I]] += X[T * PerThread + I];
  double Sum = 0;
  for (int B = 0; B < Bins; ++B)
    Sum += Bin[B] * Bin[B];
  Out[T] = Sum;
}

__global__ void gradient(const double *X, double *DX, const int *Index,
                         double *Out, double *DOut) {
  __enzyme_autodiff((void *)histogram, enzyme_dup, X, DX, enzyme_const, Index,
                    enzyme_dup, Out, DOut);
}

int main() {
  const int Threads = 256, N = Threads * PerThread;
  double *X, *DX, *Out, *DOut;
  int *Index;
  CUDA_CHECK(cudaMallocManaged(&X, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DX, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Index, N * sizeof(int)));
  CUDA_CHECK(cudaMallocManaged(&Out, Threads * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DOut, Threads * sizeof(double)));
  for (int I = 0; I < N; ++I) {
    X[I] = std::sin(0.1 * I);
    Index[I] = (I * 5 + I / 7) % Bins;
    DX[I] = 0;
  }
  for (int T = 0; T < Threads; ++T)
    DOut[T] = 1 + T % 3;
  gradient<<<Threads / 64, 64>>>(X, DX, Index, Out, DOut);
  CUDA_CHECK(cudaDeviceSynchronize());
  bool Ok = true;
  for (int T = 0; T < Threads; ++T) {
    double Bin[Bins] = {};
    for (int I = 0; I < PerThread; ++I)
      Bin[Index[T * PerThread + I]] += X[T * PerThread + I];
    for (int I = 0; I < PerThread; ++I) {
      int K = T * PerThread + I;
      Ok &= std::fabs(DX[K] - 2 * Bin[Index[K]] * (1 + T % 3)) < 1e-12;
    }
  }
  check("gradient through a per-thread array", Ok);
  return finish();
}
