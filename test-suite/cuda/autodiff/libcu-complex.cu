// libcu++'s cuda::std::complex<double> in a differentiated device
// function: exp, log, sqrt, sin, abs and complex division, which scales
// by logb and scalbn of its operands. At -O0 the device calls libdevice's
// __nv_logb, which had no rule (an error); logb (piecewise constant),
// scalbln and fdim have rules now. Against central differences of
// std::complex on the host, -O0 and -O2.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"

#include <complex>
#include <cuda/std/complex>

extern __device__ double __enzyme_autodiff(void *, ...);

__device__ double f(double X) {
  cuda::std::complex<double> Z(X, 0.5 * X);
  return cuda::std::exp(Z).real() + cuda::std::log(Z).imag() +
         cuda::std::sqrt(Z).real() + cuda::std::abs(cuda::std::sin(Z)) +
         cuda::std::abs(Z) + (Z * Z / (Z + 1.0)).real();
}

__global__ void gradients(const double *X, double *D) {
  D[threadIdx.x] = __enzyme_autodiff((void *)f, X[threadIdx.x]);
}

static double model(double V) {
  std::complex<double> Z(V, 0.5 * V);
  return std::exp(Z).real() + std::log(Z).imag() + std::sqrt(Z).real() +
         std::abs(std::sin(Z)) + std::abs(Z) + (Z * Z / (Z + 1.0)).real();
}

int main() {
  double *X, *D;
  CUDA_CHECK(cudaMallocManaged(&X, 8 * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&D, 8 * sizeof(double)));
  for (int I = 0; I < 8; ++I)
    X[I] = -1.7 + 0.5 * I;
  gradients<<<1, 8>>>(X, D);
  CUDA_CHECK(cudaDeviceSynchronize());
  for (int I = 0; I < 8; ++I) {
    double H = 1e-6, V = X[I];
    checkClose("gradient", D[I], (model(V + H) - model(V - H)) / (2 * H),
               1e-6);
  }
  cudaFree(X), cudaFree(D);
  return finish();
}
