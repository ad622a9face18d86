// With -fenzyme, what runs under emulation is the device compilation's code
// after AD: derivatives requested in device code, each thread its own.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// A device derivative that cannot be completed is an error of the device
// compilation: device code has no link-time differentiation to wait for.
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -DUNDEFINED -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=UNDEFINED
// CHECK-NOT: FAIL
// CHECK: all checks passed
// UNDEFINED: device-autodiff.cu:[[#@LINE+23]]:{{[0-9]+}}: error: cannot differentiate 'usesUndefined(double)': cannot differentiate a call to 'undefinedHere(double)': it has no definition
#include "../Inputs/check.h"

extern __device__ double __enzyme_autodiff(void *, double);
extern __device__ double __enzyme_fwddiff(void *, double, double);

__device__ double cubePlusQuadratic(double X) {
  double Y = X * X * X;
  Y += 3 * X * X;
  return Y;
}

__global__ void derivatives(const double *X, double *Reverse,
                            double *Forward) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  Reverse[I] = __enzyme_autodiff((void *)cubePlusQuadratic, X[I]);
  Forward[I] = __enzyme_fwddiff((void *)cubePlusQuadratic, X[I], 1.0);
}

#ifdef UNDEFINED
__device__ double undefinedHere(double);
__device__ double usesUndefined(double X) { return undefinedHere(X) * X; }
__global__ void undefined(double *X) {
  X[0] = __enzyme_autodiff((void *)usesUndefined, X[0]);
}
#endif

int main() {
  const int N = 64;
  double *X, *Reverse, *Forward;
  CUDA_CHECK(cudaMallocManaged(&X, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Reverse, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Forward, N * sizeof(double)));
  for (int I = 0; I < N; ++I)
    X[I] = 0.1 * I - 2;
  derivatives<<<2, N / 2>>>(X, Reverse, Forward);
  CUDA_CHECK(cudaDeviceSynchronize());
  bool ReverseOk = true, ForwardOk = true;
  for (int I = 0; I < N; ++I) {
    double Expected = 3 * X[I] * X[I] + 6 * X[I]; // d/dx (x^3 + 3 x^2)
    ReverseOk &= std::fabs(Reverse[I] - Expected) <= 1e-12 * (1 + std::fabs(Expected));
    ForwardOk &= std::fabs(Forward[I] - Expected) <= 1e-12 * (1 + std::fabs(Expected));
  }
  check("reverse mode in device code", ReverseOk);
  check("forward mode in device code", ForwardOk);
  return finish();
}
