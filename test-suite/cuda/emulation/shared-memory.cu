// Static __shared__ variables are per block, dynamic shared memory (the
// launch's third parameter) follows them, and every extern __shared__ array
// names the same dynamic memory.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"

extern __shared__ float DynamicFloats[];
extern __shared__ double DynamicDoubles[];

__device__ int blockSum(int Value) {
  // A __shared__ variable of a device function, used by several kernels.
  __shared__ int Partial;
  if (threadIdx.x == 0)
    Partial = 0;
  __syncthreads();
  atomicAdd(&Partial, Value);
  __syncthreads();
  return Partial;
}

__global__ void perBlock(int *Out) {
  __shared__ int Mine[64];
  Mine[threadIdx.x] = blockIdx.x * 100 + threadIdx.x;
  __syncthreads();
  int Sum = blockSum(Mine[63 - threadIdx.x]);
  if (threadIdx.x == 0)
    Out[blockIdx.x] = Sum;
}

// Reverses N floats through dynamic shared memory; N varies per launch.
__global__ void reverse(const float *In, float *Out, int N) {
  int T = threadIdx.x;
  if (T < N)
    DynamicFloats[T] = In[T];
  __syncthreads();
  if (T < N)
    Out[T] = DynamicFloats[N - 1 - T];
}

// Both extern arrays start at the same address.
__global__ void aliasing(double *Out) {
  if (threadIdx.x == 0) {
    DynamicDoubles[0] = 2.5;
    Out[0] = reinterpret_cast<double *>(DynamicFloats)[0];
    Out[1] = (char *)DynamicFloats == (char *)DynamicDoubles;
  }
}

int main() {
  int *Sums;
  CUDA_CHECK(cudaMallocManaged(&Sums, 4 * sizeof(int)));
  perBlock<<<4, 64>>>(Sums);
  CUDA_CHECK(cudaDeviceSynchronize());
  bool Ok = true;
  for (int B = 0; B < 4; ++B)
    Ok &= Sums[B] == B * 100 * 64 + 63 * 64 / 2;
  check("static shared memory per block", Ok);

  float *In, *Out;
  CUDA_CHECK(cudaMallocManaged(&In, 256 * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&Out, 256 * sizeof(float)));
  for (int I = 0; I < 256; ++I)
    In[I] = I * 0.5f;
  for (int N : {1, 37, 128, 256}) {
    reverse<<<1, 256, N * sizeof(float)>>>(In, Out, N);
    CUDA_CHECK(cudaDeviceSynchronize());
    Ok = true;
    for (int I = 0; I < N; ++I)
      Ok &= Out[I] == In[N - 1 - I];
    char Name[64];
    std::snprintf(Name, sizeof Name, "dynamic shared memory of %d floats", N);
    check(Name, Ok);
  }

  double *Alias;
  CUDA_CHECK(cudaMallocManaged(&Alias, 2 * sizeof(double)));
  aliasing<<<1, 32, 64>>>(Alias);
  CUDA_CHECK(cudaDeviceSynchronize());
  check("extern shared arrays alias", Alias[0] == 2.5 && Alias[1] == 1);
  return finish();
}
