// Forward mode of host code whose kernels cooperate: a block reduction
// through shared memory with __syncthreads, a warp reduction with
// __shfl_down_sync, and atomicAdd of the per-block results into one
// address. The tangent kernels carry the tangents through the same steps
// (a shuffle's tangent is the shuffled tangent, an atomicAdd's an atomicAdd
// of the tangent). Checked against central finite differences and reverse
// mode, at -O0 and -O2.
// Shared memory does not outlive a launch: the reverse kernel zeroes the
// shadow of the __shared__ array at its entry, before the reverse pass adds
// into it (the augmented kernel's zeroing was in another launch; without
// it the reverse pass added into garbage, NaN under emulation).
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -mllvm -enzyme-warp-aggregated-atomics=true %s -o %t.warps && %t.warps | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// RUN: %clangxx_enzyme -fenzyme -O2 --cuda-device-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=DEVICE
// CHECK-NOT: FAIL
// CHECK: all checks passed
// DEVICE-LABEL: define {{.*}} @_enzyme_kernel_reverse__Z9blockSumsPKdPdd(
// DEVICE-NOT:     barrier0
// DEVICE:         store i32 0, ptr addrspace(3)
// DEVICE-NOT:     load
// DEVICE:         call void @llvm.nvvm.barrier0()
// DEVICE:       ret void
#include "../Inputs/check.h"

constexpr int Block = 128, Blocks = 4, N = Block * Blocks;

// Sum of sin(X[i]) * W over the block, through shared memory.
__global__ void blockSums(const double *X, double *Sums, double W) {
  __shared__ double Partial[Block];
  int T = threadIdx.x;
  Partial[T] = sin(X[blockIdx.x * Block + T]) * W;
  __syncthreads();
  for (int Stride = Block / 2; Stride > 0; Stride /= 2) {
    if (T < Stride)
      Partial[T] += Partial[T + Stride];
    __syncthreads();
  }
  if (T == 0)
    Sums[blockIdx.x] = Partial[0];
}

// The squares of the block sums, reduced per warp with shuffles and added
// into Total with atomicAdd.
__global__ void squareAndAdd(const double *Sums, double *Total) {
  int T = threadIdx.x;
  double V = T < Blocks ? Sums[T] * Sums[T] : 0;
  for (int Offset = 16; Offset > 0; Offset /= 2)
    V += __shfl_down_sync(0xffffffff, V, Offset);
  if (T == 0)
    atomicAdd(Total, V);
}

void energy(const double *X, double *Sums, double *Total, double W) {
  blockSums<<<Blocks, Block>>>(X, Sums, W);
  squareAndAdd<<<1, 32>>>(Sums, Total);
}

extern int enzyme_dup, enzyme_const, enzyme_out;
void __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);

static double run(double *X, double *Sums, double *Total, double W) {
  *Total = 0;
  energy(X, Sums, Total, W);
  CUDA_CHECK(cudaDeviceSynchronize());
  return *Total;
}

int main() {
  double *X, *DX, *Sums, *DSums, *Total, *DTotal;
  CUDA_CHECK(cudaMallocManaged(&X, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DX, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Sums, Blocks * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DSums, Blocks * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Total, sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DTotal, sizeof(double)));
  for (int I = 0; I < N; ++I) {
    X[I] = 0.01 * I - 1.5;
    DX[I] = std::cos(0.05 * I);
  }
  const double W = 0.8, DW = -0.3;
  *Total = 0;
  *DTotal = 0;
  for (int B = 0; B < Blocks; ++B)
    DSums[B] = 0;
  __enzyme_fwddiff((void *)energy, enzyme_dup, X, DX, enzyme_dup, Sums, DSums,
                   enzyme_dup, Total, DTotal, enzyme_dup, W, DW);
  CUDA_CHECK(cudaDeviceSynchronize());
  double Tangent = *DTotal;

  // Central differences along (DX, DW).
  const double H = 1e-6;
  double *Saved = new double[N];
  for (int I = 0; I < N; ++I) {
    Saved[I] = X[I];
    X[I] = Saved[I] + H * DX[I];
  }
  double Up = run(X, Sums, Total, W + H * DW);
  for (int I = 0; I < N; ++I)
    X[I] = Saved[I] - H * DX[I];
  double Down = run(X, Sums, Total, W - H * DW);
  for (int I = 0; I < N; ++I)
    X[I] = Saved[I];
  checkClose("tangent through shared memory, shuffles and atomicAdd", Tangent,
             (Up - Down) / (2 * H), 1e-6);
  bool SumsOk = true;
  for (int B = 0; B < Blocks; ++B) {
    double Expected = 0;
    for (int T = 0; T < Block; ++T) {
      int I = B * Block + T;
      Expected += std::cos(X[I]) * DX[I] * W + std::sin(X[I]) * DW;
    }
    SumsOk &=
        std::fabs(DSums[B] - Expected) <= 1e-9 * (1 + std::fabs(Expected));
  }
  check("tangents of the block sums", SumsOk);

  // Forward against reverse: dTotal = gradient . (DX, DW).
  double *RX;
  CUDA_CHECK(cudaMallocManaged(&RX, N * sizeof(double)));
  for (int I = 0; I < N; ++I)
    RX[I] = 0;
  for (int B = 0; B < Blocks; ++B)
    DSums[B] = 0;
  *Total = 0;
  *DTotal = 1;
  double RW =
      __enzyme_autodiff((void *)energy, enzyme_dup, X, RX, enzyme_dup, Sums,
                        DSums, enzyme_dup, Total, DTotal, enzyme_out, W);
  CUDA_CHECK(cudaDeviceSynchronize());
  double Projection = RW * DW;
  for (int I = 0; I < N; ++I)
    Projection += RX[I] * DX[I];
  checkClose("forward agrees with reverse", Tangent, Projection, 1e-9);
  return finish();
}
