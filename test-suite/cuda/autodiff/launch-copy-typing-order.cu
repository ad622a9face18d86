// A copy whose contents only another copy's kernel types: device memory A
// that is staged from the host and copied to B (which a kernel declares
// float) and to D (which only host code reads, in a loop -O2 vectorises).
// The copy into D is typed through A's copy to B, whichever of the two the
// engine types first; before, once the copy to B had been given its typed
// function it no longer connected A to B, and at -O2 the derivative
// stopped with "nothing in the program says whether the memory it copies
// holds float, double, integer or pointer values". Analytic gradients at
// -O0 and -O2, forward mode against them.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup;

constexpr int N = 96;

__global__ void cube(float *X, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    X[I] = X[I] * X[I] * X[I];
}

// loss = sum_i (x_i^3 + 2 x_i)
double loss(const float *X) {
  float *A, *B, *D;
  cudaMalloc(&A, N * sizeof(float));
  cudaMalloc(&B, N * sizeof(float));
  cudaMalloc(&D, N * sizeof(float));
  cudaMemcpy(A, X, N * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(B, A, N * sizeof(float), cudaMemcpyDeviceToDevice);
  cube<<<(N + 31) / 32, 32>>>(B, N);
  cudaMemcpyAsync(D, A, N * sizeof(float), cudaMemcpyDeviceToDevice, 0);
  float Cubes[N], Copies[N];
  cudaMemcpy(Cubes, B, sizeof Cubes, cudaMemcpyDeviceToHost);
  cudaMemcpy(Copies, D, sizeof Copies, cudaMemcpyDeviceToHost);
  cudaFree(A);
  cudaFree(B);
  cudaFree(D);
  double Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += Cubes[I] + 2.0 * Copies[I];
  return Sum;
}

int main() {
  float X[N], DX[N] = {};
  for (int I = 0; I < N; ++I)
    X[I] = 0.03f * I - 1.2f;
  __enzyme_autodiff((void *)loss, enzyme_dup, X, DX);
  bool Ok = true;
  for (int I = 0; I < N; ++I)
    Ok &= std::fabs(DX[I] - (3 * X[I] * X[I] + 2)) <= 1e-5;
  check("d/dx through copies typed by another copy's kernel", Ok);
  float TX[N];
  double Projection = 0;
  for (int I = 0; I < N; ++I) {
    TX[I] = std::sin(0.7f * I);
    Projection += double(DX[I]) * TX[I];
  }
  checkClose("forward mode", __enzyme_fwddiff((void *)loss, enzyme_dup, X, TX),
             Projection, 1e-5);
  return finish();
}
