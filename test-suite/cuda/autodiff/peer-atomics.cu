// A warp whose lanes add adjoints into several addresses (each thread reads
// a row of a table that some other lanes read too) groups its lanes by
// address (match.any), sums each group in rounds of shuffles that run while
// any lane has a peer left (vote.any, ballot), and the group's lowest lane
// adds once. The GPU benchmarks (xs-lookup, rs-poles) check such gradients
// on a GPU.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -O2 --cuda-gpu-arch=sm_90 --cuda-device-only -S -emit-llvm %s -o - | FileCheck %s
// CHECK-LABEL: define internal void @_Z5modelPKdPKii.grad(
// CHECK:         call i32 @llvm.nvvm.match.any.sync.i64(i32 -1, i64
// CHECK:         call i1 @llvm.nvvm.vote.any.sync(i32 -1,
// CHECK:         call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1,
// CHECK:         call i32 @llvm.nvvm.vote.ballot.sync(i32 -1,
// CHECK:         atomicrmw fadd ptr {{.*}} monotonic

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

__global__ void gradient(const double *Table, double *DTable, const int *Rows,
                         int N) {
  __enzyme_autodiff((void *)model, enzyme_dup, Table, DTable, enzyme_const,
                    Rows, enzyme_const, N);
}
