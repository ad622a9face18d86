// Barriers reached through mutually recursive device functions, called
// with nothing that carries a derivative: each call's reverse must wait at
// the mirror of the barrier its callee waits at. The engine asks whether a
// callee reaches a barrier; before, the walk that asked about `wait` first
// cut the cycle at `wait` and kept "no barrier" for `waitMore`, so the
// reverse skipped the later calls of `waitMore` and the threads raced on
// the shadow of the shared tile: a wrong gradient without a word at -O0 and
// -O2. Analytic gradient.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"
extern double __enzyme_autodiff(void *, ...);
int enzyme_dup, enzyme_const;
__device__ __noinline__ void wait(int Depth);
// wait and waitMore call each other; the barrier is at the end of the chain.
__device__ __noinline__ void waitMore(int Depth) { wait(Depth - 1); }
__device__ __noinline__ void wait(int Depth) {
  if (Depth > 0)
    waitMore(Depth);
  else
    __syncthreads();
}
__global__ void sums(const double *X, double *Part, int Depth) {
  __shared__ double Tile[64];
  int T = threadIdx.x;
  Tile[T] = X[blockIdx.x * 64 + T] * X[blockIdx.x * 64 + T];
  wait(Depth);      // asked first: waitMore is reached through it
  double V = Tile[63 - T];
  waitMore(Depth);  // the mirror the reverse needs before Tile's shadow is read
  Tile[T] = V * 0.5 + Tile[T];
  waitMore(Depth);
  if (T == 0) { double S = 0; for (int K = 0; K < 64; ++K) S += Tile[K]; Part[blockIdx.x] = S; }
}
double loss(const double *XH, int Depth) {
  double *X, *P;
  cudaMalloc(&X, 128 * sizeof(double)); cudaMalloc(&P, 2 * sizeof(double));
  cudaMemcpy(X, XH, 128 * sizeof(double), cudaMemcpyHostToDevice);
  sums<<<2, 64>>>(X, P, Depth);
  double PH[2];
  cudaMemcpy(PH, P, sizeof PH, cudaMemcpyDeviceToHost);
  cudaFree(X); cudaFree(P);
  return PH[0] + PH[1];
}
int main() {
  static double X[128], G[128];
  for (int I = 0; I < 128; ++I) X[I] = 0.01 * I + 0.1;
  __enzyme_autodiff((void *)loss, enzyme_dup, X, G, enzyme_const, 2);
  bool Ok = true;
  // S = sum_T (0.5 x_{63-T}^2 + x_T^2) per block: dS/dx_i = 3 x_i
  for (int I = 0; I < 128; ++I) Ok &= std::fabs(G[I] - 3 * X[I]) < 1e-12;
  check("recursive barrier", Ok);
  return finish();
}
