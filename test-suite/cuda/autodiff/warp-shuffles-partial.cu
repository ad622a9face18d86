// Warp shuffles over part of a warp (a width below 32: the clamp operand's
// segment mask) and shuffles clamped at a lane known only at run time (as
// CUB's reductions of partial tiles clamp at their last valid lane, in PTX
// written as inline assembly) differentiate: each lane's adjoint goes back
// to the lane it read, which PTX's shfl.sync chooses from the lane, the
// offset and the clamp; a lane whose source is past the clamp keeps its own.
// Before, both were errors ("a warp shuffle over part of a warp"). Reverse
// mode against central differences of a host model of shfl.sync, forward
// mode against reverse mode, double and float, -O0 and -O2.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/shuffle-harness.h"

extern __device__ void __enzyme_autodiff(void *, ...);
extern __device__ void __enzyme_fwddiff(void *, ...);
__device__ int enzyme_dup, enzyme_const;

constexpr int N = 128;
// The clamp of the run-time clamped shuffle: lanes past it keep their own.
constexpr int LastLane = 20;

__device__ int globalIndex() { return blockIdx.x * blockDim.x + threadIdx.x; }

// A shuffle down by Offset clamped at lane Last, as CUB writes it: 32-bit
// PTX shuffles of the halves of a double (or of a float's bits).
__device__ double clampedDown(double V, int Offset, int Last) {
  unsigned long long Bits = __double_as_longlong(V);
  unsigned Lo = unsigned(Bits), Hi = unsigned(Bits >> 32);
  asm volatile("shfl.sync.down.b32 %0, %1, %2, %3, %4;"
               : "=r"(Lo)
               : "r"(Lo), "r"(Offset), "r"(Last), "r"(0xffffffff));
  asm volatile("shfl.sync.down.b32 %0, %1, %2, %3, %4;"
               : "=r"(Hi)
               : "r"(Hi), "r"(Offset), "r"(Last), "r"(0xffffffff));
  return __longlong_as_double((unsigned long long)Hi << 32 | Lo);
}
__device__ float clampedDown(float V, int Offset, int Last) {
  unsigned Bits = __float_as_uint(V);
  asm volatile("shfl.sync.down.b32 %0, %1, %2, %3, %4;"
               : "=r"(Bits)
               : "r"(Bits), "r"(Offset), "r"(Last), "r"(0xffffffff));
  return __uint_as_float(Bits);
}

// Out[i] = down(X^2, 3, width 16) + up(X, 2, width 8) * X + xor(X, 5, width
// 16) + idx(X, lane 3 of each 8-lane segment) + clampedDown(X, 1, LastLane)
template <typename T> __device__ T mixed(T V, int Last) {
  T D = __shfl_down_sync(0xffffffff, V * V, 3, 16);
  T U = __shfl_up_sync(0xffffffff, V, 2, 8);
  T X = __shfl_xor_sync(0xffffffff, V, 5, 16);
  T G = __shfl_sync(0xffffffff, V, 3, 8);
  T C = clampedDown(V, 1, Last);
  return D + U * V + X + G * G + C * V;
}

__device__ void model(const double *X, double *Out, const float *FX,
                      float *FOut, int Last) {
  int I = globalIndex();
  Out[I] = mixed(X[I], Last);
  FOut[I] = mixed(FX[I], Last);
}

__global__ void gradient(const double *X, double *DX, double *Out,
                         double *DOut, const float *FX, float *DFX,
                         float *FOut, float *DFOut, int Last) {
  __enzyme_autodiff((void *)model, enzyme_dup, X, DX, enzyme_dup, Out, DOut,
                    enzyme_dup, FX, DFX, enzyme_dup, FOut, DFOut, enzyme_const,
                    Last);
}

__global__ void tangent(const double *X, const double *TX, double *Out,
                        double *TOut, const float *FX, const float *TFX,
                        float *FOut, float *TFOut, int Last) {
  __enzyme_fwddiff((void *)model, enzyme_dup, X, TX, enzyme_dup, Out, TOut,
                   enzyme_dup, FX, TFX, enzyme_dup, FOut, TFOut, enzyme_const,
                   Last);
}

// The source lane of PTX's shfl.sync for lane L, offset or lane B and
// clamp C (segment mask in bits 8-12, clamp value in bits 0-4).
enum Mode { Up, Down, Xor, Idx };
static int source(Mode M, int L, int B, int C) {
  int SegMask = (C >> 8) & 31;
  int MaxLane = (L & SegMask) | (C & 31 & ~SegMask), MinLane = L & SegMask;
  int J;
  bool Valid;
  switch (M) {
  case Up:
    J = L - B, Valid = J >= MaxLane;
    break;
  case Down:
    J = L + B, Valid = J <= MaxLane;
    break;
  case Xor:
    J = L ^ B, Valid = J <= MaxLane;
    break;
  case Idx:
    J = MinLane | (B & ~SegMask), Valid = J <= MaxLane;
    break;
  }
  return Valid ? J : L;
}

// CUDA's clamp operand for a width.
static int clampFor(Mode M, int Width) {
  return ((32 - Width) << 8) | (M == Up ? 0 : 31);
}

static void hostMixed(const double *V, double *Out) {
  for (int W = 0; W < N; W += 32) {
    const double *X = V + W;
    for (int L = 0; L < 32; ++L) {
      int D = source(Down, L, 3, clampFor(Down, 16));
      int U = source(Up, L, 2, clampFor(Up, 8));
      int Xo = source(Xor, L, 5, clampFor(Xor, 16));
      int G = source(Idx, L, 3, clampFor(Idx, 8));
      int C = source(Down, L, 1, LastLane);
      Out[W + L] = X[D] * X[D] + X[U] * X[L] + X[Xo] + X[G] * X[G] +
                   X[C] * X[L];
    }
  }
}

int main() {
  ShuffleArrays A = makeShuffleArrays(N, 0.2, 7);
  gradient<<<N / 64, 64>>>(A.X, A.DX, A.Out, A.DOut, A.FX, A.DFX, A.FOut,
                           A.DFOut, LastLane);
  CUDA_CHECK(cudaDeviceSynchronize());
  checkShuffleGradient(A, hostMixed);
  tangent<<<N / 64, 64>>>(A.X, A.TX, A.Out, A.TOut, A.FX, A.TFX, A.FOut,
                          A.TFOut, LastLane);
  CUDA_CHECK(cudaDeviceSynchronize());
  checkShuffleTangent(A);
  return finish();
}
