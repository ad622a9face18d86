// Kernels launched through the runtime API (cudaLaunchKernel) whose
// parameters the host ABI does not pass one stub parameter each: a struct
// of two doubles (two stub parameters), an empty functor (none: the stub
// passes a local) and a class with a copy constructor of its own (the
// address of the caller's copy), as Thrust's and CUB's kernels take them.
// The launch's derivative reads each parameter from the launch's array as
// the stub lays it out. Before, it loaded one stub parameter per array slot
// (the second double from the next parameter's slot): a crash at -O0, a
// trap at -O2; the empty functor and the class were errors. Analytic
// gradients, reverse and forward mode, -O0 and -O2.
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

struct Pair {
  double A, B;
};
struct Square {
  __host__ __device__ double operator()(double X) const { return X * X; }
};
// Not trivially copyable: the host ABI passes it by reference.
struct Span {
  double *Data;
  int Size;
  __host__ __device__ Span(double *D, int N) : Data(D), Size(N) {}
  __host__ __device__ Span(const Span &Other)
      : Data(Other.Data), Size(Other.Size) {}
};

__global__ void apply(Pair P, Square F, Span S) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < S.Size)
    S.Data[I] = P.A * F(S.Data[I]) + P.B;
}

double loss(double *X, int N) {
  double *D;
  cudaMalloc(&D, N * sizeof(double));
  cudaMemcpy(D, X, N * sizeof(double), cudaMemcpyHostToDevice);
  Pair P{3.0, 1.0};
  Square F;
  Span S(D, N);
  void *Args[] = {&P, &F, &S};
  cudaLaunchKernel((const void *)apply, dim3(1), dim3(64), Args, 0, 0);
  double Back[64], Sum = 0;
  cudaMemcpy(Back, D, N * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(D);
  for (int I = 0; I < N; ++I)
    Sum += Back[I] * Back[I];
  return Sum;
}

int main() {
  const int N = 40;
  double X[64], DX[64] = {}, TX[64];
  for (int I = 0; I < N; ++I) {
    X[I] = 0.1 * I - 1;
    TX[I] = 1;
  }
  __enzyme_autodiff((void *)loss, enzyme_dup, X, DX, enzyme_const, N);
  bool Ok = true;
  double Dot = 0;
  for (int I = 0; I < N; ++I) {
    // d/dx (3x^2 + 1)^2 = 2 (3x^2 + 1) 6x
    double Expected = 2 * (3 * X[I] * X[I] + 1) * 6 * X[I];
    Ok &= std::fabs(DX[I] - Expected) <= 1e-12 * (1 + std::fabs(Expected));
    Dot += Expected;
  }
  check("reverse mode", Ok);
  checkClose("forward mode",
             __enzyme_fwddiff((void *)loss, enzyme_dup, X, TX, enzyme_const, N),
             Dot, 1e-12);
  return finish();
}
