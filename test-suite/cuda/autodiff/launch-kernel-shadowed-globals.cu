// Kernels that take no pointer with derivatives (no parameters at all, or
// integers and a float constant) and read or write `__device__` variables
// whose shadows the program declares: the launch carries derivatives all
// the same. Before, the host took such a launch for one without
// derivatives (nothing it passes has a shadow), launched neither
// derivative kernel, and the gradient was zero (and the tangent wrong)
// without a word. Now a kernel's host stub counts as a user of every
// global with a declared shadow (Core/GlobalUsers.h). Analytic gradient at
// -O0 and -O2; forward mode against it.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
// A shadow in constant memory, which kernels cannot write: an error of the
// device compilation (without the check, the NVPTX backend crashes on the
// atomic addition into it).
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -c -DCONSTANT_SHADOW %s -o %t.o 2>&1 | FileCheck %s --check-prefix=CONSTANT
// CONSTANT: error: the shadow 'InShadow' of 'In' is __constant__, which kernels cannot add their derivatives into; declare it __device__
#include "../Inputs/check.h"
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const, enzyme_out;
constexpr int N = 64;
#ifdef CONSTANT_SHADOW
__constant__ double InShadow[N];
__attribute__((enzyme_shadow(InShadow))) __constant__ double In[N];
#else
__device__ double InShadow[N];
__attribute__((enzyme_shadow(InShadow))) __device__ double In[N];
#endif
__device__ double OutShadow[N];
__attribute__((enzyme_shadow(OutShadow))) __device__ double Out[N];
__global__ void square() {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  Out[I] = In[I] * In[I];
}
__global__ void scaleBy(int Count, float Factor) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < Count)
    Out[I] *= Factor;
}
double loss(const double *X) {
  CUDA_CHECK(cudaMemcpyToSymbol(In, X, sizeof In));
  square<<<2, N / 2>>>();
  scaleBy<<<1, N>>>(N, 3.0f);
  double Y[N];
  CUDA_CHECK(cudaMemcpyFromSymbol(Y, Out, sizeof Out));
  double S = 0;
  for (int I = 0; I < N; ++I)
    S += Y[I];
  return S;
}
int main() {
  double X[N], G[N] = {0}, T[N];
  for (int I = 0; I < N; ++I) X[I] = 0.1 * I - 3, T[I] = std::cos(I);
  __enzyme_autodiff((void *)loss, enzyme_dup, X, G);
  bool Ok = true;
  double Dot = 0;
  for (int I = 0; I < N; ++I) { Ok &= std::fabs(G[I] - 6 * X[I]) < 1e-12; Dot += G[I] * T[I]; }
  check("gradient", Ok);
  checkClose("tangent", __enzyme_fwddiff((void *)loss, enzyme_dup, X, T), Dot, 1e-12);
  return finish();
}
