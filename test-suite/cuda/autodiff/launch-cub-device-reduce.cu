// cub::DeviceReduce::Sum in differentiated host code, at -O0 as at -O2:
// with N = 5000 a reduction kernel per block, then a single-tile kernel
// over the blocks' partial sums. Unoptimised CUB keeps the address of its
// agents' TempStorage in shared memory in an agent object, so the reverse
// kernel reached the shadow of that storage only through the address the
// augmented kernel recorded; the reverse kernel zeroes the shared-memory
// shadows it uses when it starts (shared memory does not outlive a launch)
// but did not count that one, and added the adjoints into garbage: NaN
// gradients at -O0 under emulation (which fills shared memory with 0xff),
// anything on a GPU. Analytic gradients.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O0 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"
#include <cub/cub.cuh>

extern double __enzyme_autodiff(void *, ...);
int enzyme_dup, enzyme_const;

// loss = (sum_i x_i)^2
double loss(const double *X, int Count) {
  double *D, *Out;
  CUDA_CHECK(cudaMalloc(&D, Count * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&Out, sizeof(double)));
  CUDA_CHECK(
      cudaMemcpy(D, X, Count * sizeof(double), cudaMemcpyHostToDevice));
  void *Temp = nullptr;
  size_t Bytes = 0;
  cub::DeviceReduce::Sum(Temp, Bytes, D, Out, Count);
  CUDA_CHECK(cudaMalloc(&Temp, Bytes));
  cub::DeviceReduce::Sum(Temp, Bytes, D, Out, Count);
  double Sum;
  CUDA_CHECK(cudaMemcpy(&Sum, Out, sizeof(double), cudaMemcpyDeviceToHost));
  cudaFree(Temp);
  cudaFree(Out);
  cudaFree(D);
  return Sum * Sum;
}

int main() {
  for (int Count : {32, 5000}) {
    static double X[5000], G[5000];
    double Sum = 0;
    for (int I = 0; I < Count; ++I) {
      X[I] = 0.25 + 0.001 * I;
      G[I] = 0;
      Sum += X[I];
    }
    __enzyme_autodiff((void *)loss, enzyme_dup, X, G, enzyme_const, Count);
    bool Ok = true;
    for (int I = 0; I < Count; ++I)
      Ok &= std::fabs(G[I] - 2 * Sum) <= 1e-9 * 2 * Sum;
    check(Count == 32 ? "one tile" : "several blocks", Ok);
  }
  return finish();
}
