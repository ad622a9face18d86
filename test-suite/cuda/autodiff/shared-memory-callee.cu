// Shared memory written by a function the differentiated code calls (as
// CUB's block reductions store each warp's aggregate through
// uninitialized_copy_single): the shadow of shared memory holds garbage
// when a block starts, and the store's shadow is zeroed where the callee
// stores, as where the caller does. Before, only the caller's stores zeroed
// it, and the gradient was NaN (-O0 and -O2 alike).
//
// The warp sums shuffle a double three ways: __shfl_down_sync of it, which
// -O2 keeps as its two halves across the loop's iterations through phis
// (before, the gradient was zero past the first step, without a word), and,
// with -DWORDS, one 32-bit word at a time through memory as CUB's generic
// shuffles do: optimised code shuffles the halves (the double's shuffle),
// unoptimised code keeps integer loads, an error (before, a zero gradient).
// Reverse mode against analytic values, forward mode against reverse mode.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 -DBYTES %s -o %t.bytes && %t.bytes | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -DWORDS %s -o %t.words && %t.words | FileCheck %s
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate -O0 -DWORDS %s -o %t.words0 2>&1 | FileCheck %s --check-prefix=WORDS
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
// WORDS: error: cannot differentiate 'model(double const*, double*)': cannot differentiate the call of '__shfl_down_sync(unsigned int, unsigned int, unsigned int, int)': its argument 2 is an integer that carries the bits of a float with a derivative (read from memory that holds floats, through a pointer to integers)
#include "../Inputs/check.h"

extern __device__ void __enzyme_autodiff(void *, ...);
extern __device__ void __enzyme_fwddiff(void *, ...);
__device__ int enzyme_dup;

constexpr int Threads = 64;

// The warps' aggregates, as doubles or (-DBYTES) as CUB's untyped storage.
#ifdef BYTES
struct Storage {
  unsigned long long Raw[Threads / 32];
};
__device__ double *aggregates(Storage &S) { return (double *)S.Raw; }
#else
struct Storage {
  double Aggregates[Threads / 32];
};
__device__ double *aggregates(Storage &S) { return S.Aggregates; }
#endif

__device__ __noinline__ void put(double *Slot, const double &V) { *Slot = V; }

__device__ __forceinline__ double shuffleDown(double V, int Offset) {
#ifdef WORDS
  double Out;
  unsigned *OutWords = (unsigned *)&Out, *InWords = (unsigned *)&V;
  for (int K = 0; K < 2; ++K)
    OutWords[K] = __shfl_down_sync(0xffffffff, InWords[K], Offset);
  return Out;
#else
  return __shfl_down_sync(0xffffffff, V, Offset);
#endif
}

// Lane 0 of each warp ends with its warp's sum; thread 0 adds the other
// warp's: Y[0] = sum of X, Y[32] = sum of X[32..63].
__device__ void model(const double *X, double *Y) {
  __shared__ Storage S;
  int Lane = threadIdx.x % 32, Warp = threadIdx.x / 32;
  double V = X[threadIdx.x];
  for (int Offset = 1; Offset < 32; Offset *= 2) {
    double Other = shuffleDown(V, Offset);
    if (Lane + Offset < 32)
      V += Other;
  }
  if (Lane == 0)
    put(aggregates(S) + Warp, V);
  __syncthreads();
  if (threadIdx.x == 0)
    V += aggregates(S)[1];
  Y[threadIdx.x] = V;
}

__global__ void gradient(const double *X, double *DX, double *Y, double *DY) {
  __enzyme_autodiff((void *)model, enzyme_dup, X, DX, enzyme_dup, Y, DY);
}

__global__ void tangent(const double *X, const double *TX, double *Y,
                        double *TY) {
  __enzyme_fwddiff((void *)model, enzyme_dup, X, TX, enzyme_dup, Y, TY);
}

int main() {
  double *X, *DX, *Y, *DY, *TX, *TY;
  for (double **P : {&X, &DX, &Y, &DY, &TX, &TY})
    CUDA_CHECK(cudaMallocManaged(P, Threads * sizeof(double)));
  for (int I = 0; I < Threads; ++I) {
    X[I] = std::sin(I + 0.5);
    DX[I] = 0;
    DY[I] = I == 0 || I == 32;
    TX[I] = std::cos(I);
  }
  gradient<<<1, Threads>>>(X, DX, Y, DY);
  CUDA_CHECK(cudaDeviceSynchronize());
  double Sum = 0, Upper = 0;
  for (int I = 0; I < Threads; ++I) {
    Sum += X[I];
    Upper += I >= 32 ? X[I] : 0;
  }
  checkClose("primal, block sum", Y[0], Sum, 1e-12);
  checkClose("primal, second warp's sum", Y[32], Upper, 1e-12);
  bool ReverseOk = true;
  for (int I = 0; I < Threads; ++I)
    ReverseOk &= DX[I] == (I < 32 ? 1 : 2);
  check("reverse mode: d(Y[0] + Y[32])/dX", ReverseOk);
  tangent<<<1, Threads>>>(X, TX, Y, TY);
  CUDA_CHECK(cudaDeviceSynchronize());
  double Expected = 0;
  for (int I = 0; I < Threads; ++I)
    Expected += DX[I] * TX[I];
  checkClose("forward mode agrees with reverse mode", TY[0] + TY[32],
             Expected, 1e-12);
  return finish();
}
