// Cooperative groups in kernels that differentiated host code launches: a
// block reduction through a warp tile (thread_block_tile<32>::shfl_down,
// meta_group_rank, thread_rank) and shared memory between block.sync()s,
// and cg::reduce over a tile. At -O0, block.sync() is a call of a function
// of its own that calls __syncthreads, and the call carries no derivative:
// before, the reverse pass skipped it, so the reverse kernel had no mirror
// of the barrier and its threads raced on the shadow of the shared array,
// a wrong gradient without a word. Now a call whose callee waits at a
// barrier is differentiated, whatever it is passed. Analytic gradient at
// -O0 and -O2, forward mode against it.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O0 %s -o %t.gpu0 && %t.gpu0 | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const;

__global__ void blockSums(const double *X, double *Part, int N) {
  cg::thread_block Block = cg::this_thread_block();
  cg::thread_block_tile<32> Warp = cg::tiled_partition<32>(Block);
  __shared__ double WarpSums[4];
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  double V = I < N ? X[I] * X[I] : 0.0;
  for (int O = 16; O > 0; O /= 2)
    V += Warp.shfl_down(V, O);
  if (Warp.thread_rank() == 0)
    WarpSums[Warp.meta_group_rank()] = V;
  Block.sync();
  if (threadIdx.x == 0) {
    double S = 0;
    for (int W = 0; W < 4; ++W) S += WarpSums[W];
    Part[blockIdx.x] = S;
  }
}

__global__ void reduced(const double *X, double *Out, int N) {
  cg::thread_block Block = cg::this_thread_block();
  auto Warp = cg::tiled_partition<32>(Block);
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  double V = I < N ? sin(X[I]) : 0.0;
  double S = cg::reduce(Warp, V, cg::plus<double>());
  if (Warp.thread_rank() == 0) atomicAdd(Out, S);
}

double loss(const double *XH, int N) {
  double *X, *P, *O;
  int Blocks = (N + 127) / 128;
  cudaMalloc(&X, N * sizeof(double)); cudaMalloc(&P, Blocks * sizeof(double)); cudaMalloc(&O, sizeof(double));
  cudaMemset(O, 0, sizeof(double));
  cudaMemcpy(X, XH, N * sizeof(double), cudaMemcpyHostToDevice);
  blockSums<<<Blocks, 128>>>(X, P, N);
  reduced<<<Blocks, 128>>>(X, O, N);
  double PH[16], OH;
  cudaMemcpy(PH, P, Blocks * sizeof(double), cudaMemcpyDeviceToHost);
  cudaMemcpy(&OH, O, sizeof(double), cudaMemcpyDeviceToHost);
  double S = OH * OH;
  for (int B = 0; B < Blocks; ++B) S += PH[B];
  cudaFree(X); cudaFree(P); cudaFree(O);
  return S;
}

int main() {
  const int N = 300;
  static double X[N], G[N], T[N];
  double SumSin = 0;
  for (int I = 0; I < N; ++I) X[I] = 0.01 * I - 1, T[I] = cos(I), SumSin += sin(X[I]);
  __enzyme_autodiff((void *)loss, enzyme_dup, X, G, enzyme_const, N);
  bool Ok = true; double Dot = 0;
  for (int I = 0; I < N; ++I) { double W = 2 * X[I] + 2 * SumSin * cos(X[I]); Ok &= std::fabs(G[I] - W) < 1e-9 * (1 + std::fabs(W)); Dot += G[I] * T[I]; }
  check("cooperative groups gradient", Ok);
  checkClose("cooperative groups tangent", __enzyme_fwddiff((void *)loss, enzyme_dup, X, T, enzyme_const, N), Dot, 1e-9);
  return finish();
}
