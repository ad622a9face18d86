// atomicAdd in the program differentiates: every thread adds its term into
// one total, and in the reverse pass each term's adjoint is the total's
// (read from its shadow); in forward mode the tangents add up in the
// shadow the same way. Checked against the analytic derivative.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -mllvm -enzyme-warp-aggregated-atomics=true %s -o %t.warps && %t.warps | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"

extern __device__ void __enzyme_autodiff(void *, ...);
extern __device__ void __enzyme_fwddiff(void *, ...);
__device__ int enzyme_dup, enzyme_const;

// Total += sum of sin(X[i]) * X[i].
__device__ void accumulate(const double *X, double *Total) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(Total, sin(X[I]) * X[I]);
}

__global__ void gradient(const double *X, double *DX, double *Total,
                         double *DTotal) {
  __enzyme_autodiff((void *)accumulate, enzyme_dup, X, DX, enzyme_dup, Total,
                    DTotal);
}

__global__ void tangent(const double *X, const double *TX, double *Total,
                        double *TTotal) {
  __enzyme_fwddiff((void *)accumulate, enzyme_dup, X, TX, enzyme_dup, Total,
                   TTotal);
}

int main() {
  const int N = 2048;
  double *X, *DX, *Total, *DTotal;
  CUDA_CHECK(cudaMallocManaged(&X, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DX, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Total, sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DTotal, sizeof(double)));
  for (int I = 0; I < N; ++I) {
    X[I] = 0.002 * I - 1;
    DX[I] = 0;
  }
  *Total = 0;
  *DTotal = 3;
  gradient<<<N / 128, 128>>>(X, DX, Total, DTotal);
  CUDA_CHECK(cudaDeviceSynchronize());
  bool Ok = true;
  for (int I = 0; I < N; ++I)
    Ok &= std::fabs(DX[I] - 3 * (std::cos(X[I]) * X[I] + std::sin(X[I]))) <
          1e-12;
  check("reverse mode: every term's adjoint is the total's", Ok);
  checkClose("reverse mode: the total's adjoint stays", *DTotal, 3, 0);

  *Total = 0;
  *DTotal = 0;
  for (int I = 0; I < N; ++I)
    DX[I] = (I % 3) - 1;
  tangent<<<N / 128, 128>>>(X, DX, Total, DTotal);
  CUDA_CHECK(cudaDeviceSynchronize());
  double Expected = 0;
  for (int I = 0; I < N; ++I)
    Expected += (std::cos(X[I]) * X[I] + std::sin(X[I])) * DX[I];
  checkClose("forward mode: the tangents add up", *DTotal, Expected, 1e-10);
  return finish();
}
