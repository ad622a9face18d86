// Device code that copies structs with padding and windows of doubles, in
// reverse mode.
// - A struct of ints and longs passed by value (unoptimised code copies it
//   with memcpy): the copy's bytes between the fields are padding of the
//   struct, which holds no value; the copy was the error "cannot tell what
//   the N bytes copied here hold" at -O0.
// - A struct of a flag and a pointer passed by value: at -O0, SROA leaves
//   the seven bytes after the flag as a copy between two locals nothing
//   else touches; that copy moves nothing, and was the same error.
// - memcpy of a window of doubles that other threads read too: the
//   adjoint adds back atomically, and its loop's back edge came from the
//   wrong block (a broken module, the device compilation crashed).
// Gradients against the analytic values, -O0 and -O2.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"
#include <cstring>

extern __device__ void __enzyme_autodiff(void *, ...);
__device__ int enzyme_dup, enzyme_const;

constexpr int Threads = 128, Width = 6;

// Padding after First and after Count.
struct Window {
  int First;
  long Stride;
  int Count;
  long Scale;
};

// Seven bytes of padding after Squared.
struct Source {
  bool Squared;
  const double *X;
};

__device__ __noinline__ double sumWindow(Window W, Source S) {
  double Sum = 0;
  for (int I = 0; I < W.Count; ++I) {
    double V = S.X[W.First + I * W.Stride];
    Sum += S.Squared ? V * V : V;
  }
  return Sum * W.Scale;
}

// Out[t] = 3 * sum of X[t + i]^2 over i < Width (through the structs), plus
// the sum of a copy of the window X[t .. t + Width), each times (i + 1).
__device__ void windows(const double *X, double *Out, int Count) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  Window W = {T, 1, Count, 3};
  Source S = {true, X};
  double Copy[Width];
  std::memcpy(Copy, X + T, Count * sizeof(double));
  double Weighted = 0;
  for (int I = 0; I < Count; ++I)
    Weighted += (I + 1) * Copy[I];
  Out[T] = sumWindow(W, S) + Weighted;
}

__global__ void gradient(const double *X, double *DX, double *Out,
                         double *DOut, int Count) {
  __enzyme_autodiff((void *)windows, enzyme_dup, X, DX, enzyme_dup, Out, DOut,
                    enzyme_const, Count);
}

int main() {
  const int N = Threads + Width;
  double *X, *DX, *Out, *DOut;
  CUDA_CHECK(cudaMallocManaged(&X, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DX, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Out, Threads * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DOut, Threads * sizeof(double)));
  for (int I = 0; I < N; ++I) {
    X[I] = std::sin(0.3 * I) + 0.5;
    DX[I] = 0;
  }
  // The reverse pass consumes the seeds (DOut is zero afterwards).
  double Seed[Threads];
  for (int T = 0; T < Threads; ++T)
    DOut[T] = Seed[T] = 1 + T % 4;
  gradient<<<Threads / 32, 32>>>(X, DX, Out, DOut, Width);
  CUDA_CHECK(cudaDeviceSynchronize());
  double MaxError = 0;
  for (int K = 0; K < N; ++K) {
    double Expected = 0;
    for (int I = 0; I < Width; ++I) {
      int T = K - I;
      if (T >= 0 && T < Threads)
        Expected += Seed[T] * (6 * X[K] + (I + 1));
    }
    MaxError = std::fmax(MaxError, std::fabs(DX[K] - Expected));
  }
  std::printf("max error %g\n", MaxError);
  check("gradient through padded structs and a shared window's copy",
        MaxError < 1e-12);
  return finish();
}
