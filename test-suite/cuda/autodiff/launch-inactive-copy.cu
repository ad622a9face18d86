// A registration the user wrote for a CUDA runtime call wins over the
// toolchain's own gradient: cudaMemcpy marked inactive moves no adjoint, so
// nothing reaches the host input through the copy (the toolchain's typed
// copy used to replace the call and drop the mark).
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"

__global__ void square(const double *X, double *Y, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Y[I] = X[I] * X[I];
}

void *__enzyme_inactivefn_copy[1] = {
    (void *)(cudaError_t(*)(void *, const void *, size_t,
                            cudaMemcpyKind))cudaMemcpy};

// sum of squares, the input copied to the device.
double loss(const double *HostX, double *Y, int N) {
  double *X;
  cudaMalloc(&X, N * sizeof(double));
  cudaMemcpy(X, HostX, N * sizeof(double), cudaMemcpyHostToDevice);
  square<<<(N + 31) / 32, 32>>>(X, Y, N);
  cudaDeviceSynchronize();
  double Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += Y[I];
  cudaFree(X);
  return Sum;
}

extern int enzyme_dup;
double __enzyme_autodiff(void *, ...);

int main() {
  const int N = 64;
  double HostX[N], DHostX[N];
  double *Y, *DY;
  CUDA_CHECK(cudaMallocManaged(&Y, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DY, N * sizeof(double)));
  for (int I = 0; I < N; ++I) {
    HostX[I] = 0.5 + 0.01 * I;
    DHostX[I] = 0;
    DY[I] = 0;
  }
  __enzyme_autodiff((void *)loss, enzyme_dup, HostX, DHostX, enzyme_dup, Y, DY,
                    N);
  bool Zero = true;
  for (int I = 0; I < N; ++I)
    Zero &= DHostX[I] == 0;
  check("no adjoint through the inactive copy", Zero);
  return finish();
}
