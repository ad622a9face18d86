// What a GPU gradient records goes through the thread's slow local memory,
// so the reverse pass recomputes instead where it can, and these device
// functions record nothing at all:
//  - libdevice's math (cos, sin, exp) is recomputed from its argument, and
//    the forward sweep's copies of calls whose results only the reverse
//    pass needed are gone (their slow paths would otherwise stay);
//  - a pointer that walks a table by whole records is stepped back, and the
//    table (read-only) reloaded; its shadow follows it;
//  - a binary search, which no derivative flows through, is skipped by the
//    reverse pass;
//  - a row found through an index read from another table (a long chain of
//    index arithmetic) is recomputed.
// Their gradients are checked against analytic values under emulation and,
// where a GPU is present, on it.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -O2 -mllvm -enzyme-inline-device-derivatives=false --cuda-gpu-arch=sm_90 --cuda-device-only -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s --check-prefix=OUT
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s --check-prefix=OUT
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s --check-prefix=OUT %}
// Nothing before the reverse loop, which starts from the last record (byte
// 360): no tape, no cos or sin (their argument reductions only come in the
// reverse pass, which recomputes them).
// CHECK-LABEL: define internal void @_Z5polesPKdd.grad(
// CHECK-NOT:     alloca
// CHECK-NOT:     __internal_trig_reduction_slowpathd
// CHECK:         phi i64 [ 360,
// CHECK-LABEL: define internal void @_Z6lookupPKdS0_PKidi.grad(
// CHECK-NOT:     alloca
// CHECK-NOT:     tape.grow
// CHECK:       ret void
// OUT-NOT: FAIL
// OUT: all checks passed
#include "../Inputs/check.h"

extern __device__ void __enzyme_autodiff(void *, ...);
__device__ int enzyme_dup, enzyme_const;

constexpr int Poles = 16, Grid = 64, Rows = 6;

/// Records of three fields (location, width, strength), walked by pointer.
__device__ double poles(const double *P, double E) {
  double S = 0;
  for (const double *R = P; R < P + 3 * Poles; R += 3)
    S += R[2] * cos(E * R[0]) * exp(-R[1] * E);
  return S;
}

/// A binary search of a grid, then a row of a table picked through another.
__device__ double lookup(const double *Table, const double *GridPoints,
                         const int *Which, double E, int M) {
  int Lo = 0, Hi = Grid - 1;
  while (Hi - Lo > 1) {
    int Mid = (Lo + Hi) / 2;
    if (GridPoints[Mid] > E)
      Hi = Mid;
    else
      Lo = Mid;
  }
  double F = (E - GridPoints[Lo]) / (GridPoints[Lo + 1] - GridPoints[Lo]);
  double S = 0;
  for (int K = 0; K < 2; ++K) {
    const double *Row = Table + (size_t(Which[M * 2 + K]) * Grid + Lo) * 2;
    S += Row[0] + F * (Row[2] - Row[0]) + Row[1] * Row[3];
  }
  return S;
}

__global__ void poleGradients(const double *P, double *DP) {
  double E = 0.2 + 0.1 * threadIdx.x;
  __enzyme_autodiff((void *)poles, enzyme_dup, P, DP, enzyme_const, E);
}

__global__ void lookupGradients(const double *Table, double *DTable,
                                const double *GridPoints, const int *Which) {
  double E = (threadIdx.x + 0.5) / 40.0;
  __enzyme_autodiff((void *)lookup, enzyme_dup, Table, DTable, enzyme_const,
                    GridPoints, enzyme_const, Which, enzyme_const, E,
                    enzyme_const, int(threadIdx.x % 3));
}

int main() {
  constexpr int Threads = 40;
  double *P, *DP, *Table, *DTable, *GridPoints;
  int *Which;
  CUDA_CHECK(cudaMallocManaged(&P, 3 * Poles * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DP, 3 * Poles * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Table, Rows * Grid * 2 * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DTable, Rows * Grid * 2 * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&GridPoints, Grid * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Which, 6 * sizeof(int)));
  for (int I = 0; I < 3 * Poles; ++I)
    P[I] = I % 3 == 0 ? 0.5 + 0.1 * I : I % 3 == 1 ? 0.1 + 0.01 * I : 1 - 0.02 * I;
  for (int I = 0; I < Rows * Grid * 2; ++I)
    Table[I] = 1 + 0.001 * I;
  for (int I = 0; I < Grid; ++I)
    GridPoints[I] = double(I) / (Grid - 1);
  const int Picks[6] = {4, 1, 0, 5, 2, 4};
  for (int I = 0; I < 6; ++I)
    Which[I] = Picks[I];

  double Expected[3 * Poles] = {};
  for (int T = 0; T < Threads; ++T) {
    double E = 0.2 + 0.1 * T;
    for (int I = 0; I < Poles; ++I) {
      double X = P[3 * I], W = P[3 * I + 1], A = P[3 * I + 2];
      double C = cos(E * X), D = exp(-W * E);
      Expected[3 * I] += -A * E * sin(E * X) * D;
      Expected[3 * I + 1] += -A * C * E * D;
      Expected[3 * I + 2] += C * D;
    }
  }
  for (int I = 0; I < 3 * Poles; ++I)
    DP[I] = 0;
  poleGradients<<<1, Threads>>>(P, DP);
  CUDA_CHECK(cudaDeviceSynchronize());
  bool Ok = true;
  for (int I = 0; I < 3 * Poles; ++I)
    Ok &= std::fabs(DP[I] - Expected[I]) <= 1e-10 * (1 + std::fabs(Expected[I]));
  check("records walked by pointer: every field's adjoint", Ok);

  double ExpectedTable[Rows * Grid * 2] = {};
  for (int T = 0; T < Threads; ++T) {
    double E = (T + 0.5) / 40.0;
    int Lo = 0;
    while (Lo + 2 < Grid && GridPoints[Lo + 1] <= E)
      ++Lo;
    double F = (E - GridPoints[Lo]) / (GridPoints[Lo + 1] - GridPoints[Lo]);
    for (int K = 0; K < 2; ++K) {
      double *Row = ExpectedTable + (size_t(Picks[(T % 3) * 2 + K]) * Grid + Lo) * 2;
      const double *Values = Table + (Row - ExpectedTable);
      Row[0] += 1 - F;
      Row[2] += F;
      Row[1] += Values[3];
      Row[3] += Values[1];
    }
  }
  for (int I = 0; I < Rows * Grid * 2; ++I)
    DTable[I] = 0;
  lookupGradients<<<1, Threads>>>(Table, DTable, GridPoints, Which);
  CUDA_CHECK(cudaDeviceSynchronize());
  Ok = true;
  for (int I = 0; I < Rows * Grid * 2; ++I)
    Ok &= std::fabs(DTable[I] - ExpectedTable[I]) <= 1e-10 * (1 + std::fabs(ExpectedTable[I]));
  check("a binary search and rows picked through a table: every adjoint", Ok);
  return finish();
}
