// A warp whose lanes add adjoints into several addresses (each thread reads
// a row of a table that some other lanes read too) groups its active lanes
// by address (match.any over __activemask), sums each group in a tree of
// shuffles, and the group's lowest lane adds once. The grouping, and which
// lane gives its sum to which in each round of the tree (votes and
// ballots), depend on the addresses alone: they are found once per base
// address, and the three fields of a row share them (one match.any, one
// set of votes, then shuffles only for each addition). The GPU benchmarks
// (xs-lookup, rs-poles) check such gradients on a GPU; the gradients run
// here under emulation (lanes add one by one, and grouped as on a GPU) and,
// where a GPU is present, on it: partial warps, lanes left out.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -O2 -mllvm -enzyme-inline-device-derivatives=false --cuda-gpu-arch=sm_90 --cuda-device-only -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t && %t | FileCheck %s --check-prefix=OUT
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -mllvm -enzyme-warp-aggregated-atomics=true %s -o %t.groups && %t.groups | FileCheck %s --check-prefix=OUT
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s --check-prefix=OUT %}
// CHECK-LABEL: define internal void @_Z5modelPKdPKii.grad(
// CHECK:         %[[ACTIVE:.*]] = {{.*}}call i32 @llvm.nvvm.activemask()
// CHECK:         call i32 @llvm.nvvm.match.any.sync.i64(i32 %[[ACTIVE]], i64
// CHECK:         call i1 @llvm.nvvm.vote.any.sync(i32 %[[ACTIVE]],
// CHECK:         call i32 @llvm.nvvm.vote.ballot.sync(i32 %[[ACTIVE]],
// CHECK:         call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 %[[ACTIVE]],
// CHECK:         atomicrmw fadd ptr {{.*}} monotonic
// An addition into global memory goes through the global window (PTX's
// atom.global, which ptxas makes a reduction; a generic atomic returns the
// old value); other generic addresses (shared memory) stay generic.
// CHECK-LABEL: define internal void @_Z4rowsPKdPKi.grad(
// CHECK:         call i1 @llvm.nvvm.isspacep.global(
// CHECK:         call i32 @llvm.nvvm.match.any.sync.i64(
// CHECK-COUNT-4: call i32 @llvm.nvvm.vote.ballot.sync(
// CHECK:         call i1 @llvm.nvvm.vote.any.sync(
// CHECK-NOT:     call {{.*}}@llvm.nvvm.{{match|vote}}
// CHECK:         %[[GLOBAL:.*]] = addrspacecast ptr %{{.*}} to ptr addrspace(1)
// CHECK-NEXT:    atomicrmw fadd ptr addrspace(1) %[[GLOBAL]]
// CHECK-NEXT:    br
// CHECK-NOT:     call {{.*}}@llvm.nvvm.{{match|vote}}
// CHECK:         call i32 @llvm.nvvm.shfl.sync.idx.i32(
// CHECK-NOT:     call {{.*}}@llvm.nvvm.{{match|vote}}
// CHECK:       ret void
// OUT-NOT: FAIL
// OUT: all checks passed
#include "../Inputs/check.h"

extern __device__ void __enzyme_autodiff(void *, ...);
__device__ int enzyme_dup, enzyme_const;

__device__ double model(const double *Table, const int *Rows, int N) {
  double Sum = 0;
  for (int K = 0; K < N; ++K) {
    double V = Table[Rows[threadIdx.x % 7] + K];
    Sum += cos(V) / (1 + V * V);
  }
  return Sum;
}

/// Three fields of a row that several lanes read.
__device__ double rows(const double *Table, const int *Rows) {
  const double *Row = Table + 3 * Rows[threadIdx.x % 5];
  return Row[0] * Row[1] + sin(Row[2]);
}

__global__ void gradient(const double *Table, double *DTable, const int *Rows,
                         int N) {
  __enzyme_autodiff((void *)model, enzyme_dup, Table, DTable, enzyme_const,
                    Rows, enzyme_const, N);
}

// Every third thread stays out (a warp's active lanes group among
// themselves); blocks of 48 threads leave the second warp half full.
__global__ void rowGradient(const double *Table, double *DTable,
                            const int *Rows) {
  if (threadIdx.x % 3 != 0)
    __enzyme_autodiff((void *)rows, enzyme_dup, Table, DTable, enzyme_const,
                      Rows);
}

int main() {
  constexpr int TableSize = 64, N = 4, Blocks = 3, Threads = 48;
  const int RowStarts[7] = {0, 9, 3, 30, 9, 51, 17};
  double *Table, *DTable;
  int *Rows;
  CUDA_CHECK(cudaMallocManaged(&Table, TableSize * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DTable, TableSize * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Rows, 7 * sizeof(int)));
  for (int I = 0; I < TableSize; ++I)
    Table[I] = 0.1 + 0.05 * I;
  for (int I = 0; I < 7; ++I)
    Rows[I] = RowStarts[I];

  double Expected[TableSize] = {};
  for (int B = 0; B < Blocks; ++B)
    for (int T = 0; T < Threads; ++T)
      for (int K = 0; K < N; ++K) {
        double V = Table[RowStarts[T % 7] + K], Q = 1 + V * V;
        Expected[RowStarts[T % 7] + K] +=
            -sin(V) / Q - cos(V) * 2 * V / (Q * Q);
      }
  for (int I = 0; I < TableSize; ++I)
    DTable[I] = 0;
  gradient<<<Blocks, Threads>>>(Table, DTable, Rows, N);
  CUDA_CHECK(cudaDeviceSynchronize());
  bool Ok = true;
  for (int I = 0; I < TableSize; ++I)
    Ok &= std::fabs(DTable[I] - Expected[I]) <=
          1e-12 * (1 + std::fabs(Expected[I]));
  check("rows shared by lanes: every element's adjoint", Ok);

  for (int I = 0; I < TableSize; ++I)
    Expected[I] = DTable[I] = 0;
  for (int B = 0; B < Blocks; ++B)
    for (int T = 0; T < Threads; ++T)
      if (T % 3 != 0) {
        int R = 3 * RowStarts[T % 5];
        Expected[R] += Table[R + 1];
        Expected[R + 1] += Table[R];
        Expected[R + 2] += cos(Table[R + 2]);
      }
  rowGradient<<<Blocks, Threads>>>(Table, DTable, Rows);
  CUDA_CHECK(cudaDeviceSynchronize());
  Ok = true;
  for (int I = 0; I < TableSize; ++I)
    Ok &= std::fabs(DTable[I] - Expected[I]) <=
          1e-12 * (1 + std::fabs(Expected[I]));
  check("a row's three fields, some lanes inactive: every element's adjoint",
        Ok);
  return finish();
}
