// Thrust's complex functions in a differentiated device function: exp,
// log, sqrt, sin, abs of thrust::complex<double>, and exp's scaled path
// for a real part near 710, where exp alone would overflow (in forward
// mode: reverse mode's adjoint of the unscaled exponential is 2^1024 times
// larger than the result, and overflows). Thrust
// ports FreeBSD's msun, which writes a new exponent into a double's high
// word (set_high_word) and splits a double into a head and a tail by
// clearing its low bits (clog's trim); both were an error ("floats whose
// bits ... are moved as integers"). Now they are the floating-point
// operations of the same value (Modes/FloatBitFields.h). Against central
// differences of std::complex on the host, -O2; -O0 keeps each word of the
// double apart, which is still an error.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O1 %s -o %t.O1 && %t.O1 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 2>&1 | FileCheck %s --check-prefix=UNOPTIMISED
// CHECK-NOT: FAIL
// CHECK: all checks passed
// UNOPTIMISED: error: cannot differentiate 'f(double)':
// UNOPTIMISED-SAME: bits
#include "../Inputs/check.h"

#include <complex>
#include <thrust/complex.h>

extern __device__ double __enzyme_autodiff(void *, ...);
extern __device__ double __enzyme_fwddiff(void *, ...);

__device__ double f(double X) {
  thrust::complex<double> Z(X, 0.5 * X);
  return thrust::exp(Z).real() + thrust::log(Z).imag() +
         thrust::sqrt(Z).real() + thrust::abs(thrust::sin(Z)) +
         thrust::abs(Z);
}

// The same in float (cexpf, clogf...: the bits of floats).
__device__ float single(float X) {
  thrust::complex<float> Z(X, 0.5f * X);
  return thrust::exp(Z).real() + thrust::log(Z).imag() +
         thrust::sqrt(Z).real() + thrust::abs(thrust::sin(Z)) +
         thrust::abs(Z);
}

extern __device__ float __enzyme_autodiff_single(void *, ...) __asm__(
    "__enzyme_autodiff");

// Re exp(x + 1.0472 i): exp(x) cos(1.0472), finite near x = 710 although
// exp(x) is not.
__device__ double large(double X) {
  return thrust::exp(thrust::complex<double>(X, 1.0472)).real();
}

__global__ void gradients(const double *X, double *D, float *S,
                          double *Large) {
  D[threadIdx.x] = __enzyme_autodiff((void *)f, X[threadIdx.x]);
  S[threadIdx.x] =
      __enzyme_autodiff_single((void *)single, (float)X[threadIdx.x]);
  if (threadIdx.x == 0)
    *Large = __enzyme_fwddiff((void *)large, 709.9, 1.0);
}

static double model(double V) {
  std::complex<double> Z(V, 0.5 * V);
  return std::exp(Z).real() + std::log(Z).imag() + std::sqrt(Z).real() +
         std::abs(std::sin(Z)) + std::abs(Z);
}

int main() {
  double *X, *D, *Large;
  float *S;
  CUDA_CHECK(cudaMallocManaged(&S, 8 * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&X, 8 * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&D, 8 * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Large, sizeof(double)));
  for (int I = 0; I < 8; ++I)
    X[I] = -1.7 + 0.5 * I;
  gradients<<<1, 8>>>(X, D, S, Large);
  CUDA_CHECK(cudaDeviceSynchronize());
  for (int I = 0; I < 8; ++I) {
    double H = 1e-6, V = X[I];
    double Want = (model(V + H) - model(V - H)) / (2 * H);
    checkClose("gradient", D[I], Want, 1e-6);
    checkClose("gradient in float", S[I], Want, 1e-4);
  }
  // d/dx exp(x) cos(y) = exp(x) cos(y), relative to its size (exp(709.9)
  // itself overflows).
  double Want = std::exp(709.9 - 10) * std::cos(1.0472);
  checkClose("tangent on the scaled path", *Large / Want / std::exp(10.0),
             1.0, 1e-12);
  cudaFree(X), cudaFree(D), cudaFree(S), cudaFree(Large);
  return finish();
}
