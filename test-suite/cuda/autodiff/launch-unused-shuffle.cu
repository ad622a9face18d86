// A warp shuffle of a double whose result the kernel does not use, beside
// one it does. Clang's CUDA header shuffles a double as two 32-bit halves
// and puts them back together; -O2 deletes the reassembly of the unused
// result, and its halves then looked like a float's bits moved as
// integers: "cannot differentiate floats whose bits carry a derivative but
// are moved as integers ..." (with exp() shuffled: "... floats unpacked
// from the integer that '__nv_exp' returns"), found by scripts/fuzz --kind
// cuda (seeds 76, 87). The engine's copy of the kernel drops shuffles whose
// results nothing uses. Analytic gradients at -O0 and -O2, forward mode
// against them.
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

constexpr int N = 32;

// y_i = v_{i+1} (the last lane keeps its own), v = x^2 or exp(x).
__global__ void neighbour(const double *X, double *Y, int UseExp) {
  int I = threadIdx.x;
  double V = UseExp ? exp(X[I]) : X[I] * X[I];
  double Down = __shfl_down_sync(0xffffffffu, V, 1);
  double Unused = __shfl_up_sync(0xffffffffu, V, 1);
  (void)Unused;
  Y[I] = Down;
}

int UseExp;

double loss(const double *X) {
  double *D, *E;
  cudaMalloc(&D, N * sizeof(double));
  cudaMalloc(&E, N * sizeof(double));
  cudaMemcpy(D, X, N * sizeof(double), cudaMemcpyHostToDevice);
  neighbour<<<1, N>>>(D, E, UseExp);
  double Y[N];
  cudaMemcpy(Y, E, sizeof Y, cudaMemcpyDeviceToHost);
  cudaFree(D);
  cudaFree(E);
  double S = 0;
  for (int I = 0; I < N; ++I)
    S += (I + 1) * Y[I];
  return S;
}

int main() {
  for (UseExp = 0; UseExp < 2; ++UseExp) {
    double X[N], DX[N] = {};
    for (int I = 0; I < N; ++I)
      X[I] = 0.05 * I - 0.7;
    __enzyme_autodiff((void *)loss, enzyme_dup, X, DX);
    bool Ok = true;
    for (int I = 0; I < N; ++I) {
      // Lane I - 1 reads v_I; the last lane reads its own.
      double Weight = (I > 0 ? I : 0) + (I == N - 1 ? N : 0);
      double DV = UseExp ? std::exp(X[I]) : 2 * X[I];
      Ok &= std::fabs(DX[I] - Weight * DV) <= 1e-12 * (1 + Weight);
    }
    check(UseExp ? "d/dx beside an unused shuffle of exp(x)"
                 : "d/dx beside an unused shuffle of x^2",
          Ok);
    double TX[N], Projection = 0;
    for (int I = 0; I < N; ++I) {
      TX[I] = std::sin(0.3 * I);
      Projection += DX[I] * TX[I];
    }
    checkClose("forward mode", __enzyme_fwddiff((void *)loss, enzyme_dup, X, TX),
               Projection, 1e-12);
  }
  return finish();
}
