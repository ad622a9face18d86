// A kernel that adds into a few slots with atomicAdd(&acc[i & 1], ...),
// launched from differentiated host code. From -O1 on, clang puts the
// atomic addition on the element address of the kernel's parameter, whose
// shadow the reverse kernel needs: "internal error: the reverse pass needs
// a value it did not plan for" before (scripts/fuzz --kind cuda, seeds 10,
// 20, ...). Analytic gradients at -O0 and -O2, forward mode against them.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const;

constexpr int N = 40;

__global__ void slots(const double *X, double *Acc, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    atomicAdd(&Acc[I & 1], X[I] * X[I]);
}

// loss = sum over even i of x_i^2 + 2 sum over odd i of x_i^2
double loss(const double *X) {
  double *D, *Acc;
  cudaMalloc(&D, N * sizeof(double));
  cudaMalloc(&Acc, 2 * sizeof(double));
  cudaMemset(Acc, 0, 2 * sizeof(double));
  cudaMemcpy(D, X, N * sizeof(double), cudaMemcpyHostToDevice);
  slots<<<(N + 15) / 16, 16>>>(D, Acc, N);
  double Sums[2];
  cudaMemcpy(Sums, Acc, sizeof Sums, cudaMemcpyDeviceToHost);
  cudaFree(D);
  cudaFree(Acc);
  return Sums[0] + 2 * Sums[1];
}

int main() {
  double X[N], DX[N] = {};
  for (int I = 0; I < N; ++I)
    X[I] = 0.1 * I - 1.3;
  __enzyme_autodiff((void *)loss, enzyme_dup, X, DX);
  bool Ok = true;
  for (int I = 0; I < N; ++I)
    Ok &= std::fabs(DX[I] - (I & 1 ? 4 : 2) * X[I]) <= 1e-12;
  check("d/dx of atomic additions into two slots", Ok);
  double TX[N], Projection = 0;
  for (int I = 0; I < N; ++I) {
    TX[I] = std::cos(0.4 * I);
    Projection += DX[I] * TX[I];
  }
  checkClose("forward mode", __enzyme_fwddiff((void *)loss, enzyme_dup, X, TX),
             Projection, 1e-12);
  return finish();
}
