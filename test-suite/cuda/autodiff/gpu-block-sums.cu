// Every thread of a launch adds a coefficient's adjoint into one address.
// Each warp sums its lanes first; where the kernel waits for its block
// before and after such an addition (__syncthreads in the primal and its
// mirror in the reverse pass, outside loops), the warps of a block also sum
// theirs in shared memory, and one warp adds the block's sum after the
// later barrier:
//  - every thread empties the slot at the kernel's entry and waits there
//    for the others (a barrier where all are), a warp claims it
//    for its address with a compare-and-swap and adds into it (or into
//    global memory when another address holds it), and after the mirrored
//    barrier the first lane of each warp exchanges the slot's address for
//    0: the one that finds it adds the sum there;
//  - the block's first warp may have returned before (weigh): any warp
//    flushes, and the entry the returned threads ran empties the slot;
//  - without a barrier (scale), or where the addition repeats in a loop
//    with the barrier inside it (relax), the warps add into global memory:
//    only smooth's and weigh's two coefficients get slots.
// The gradients are checked against central differences under emulation,
// lane by lane (as emulation adds by default) and with the warp sums and
// block sums as on a GPU (the emulator's __activemask names the lanes that
// reach it together), and, where a GPU is present, on it.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -O2 --cuda-gpu-arch=sm_90 --cuda-device-only -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: grep -c 'block.sum[0-9]* = internal addrspace(3) global' %t.ll | FileCheck %s --check-prefix=FOUR
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s --check-prefix=OUT
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -mllvm -enzyme-warp-aggregated-atomics=true %s -o %t.sums && %t.sums | FileCheck %s --check-prefix=OUT
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s --check-prefix=OUT %}
// FOUR: {{^}}4{{$}}
// CHECK-LABEL: define {{.*}} @_Z9gradients
// CHECK:         store i64 0, ptr addrspace(3) @[[SLOT:[^ ,]*block.sum[0-9]*]]
// CHECK:         call void @llvm.nvvm.barrier0()
// CHECK-NEXT:    switch
// CHECK:         call void @llvm.nvvm.barrier0()
// CHECK:         call void @llvm.nvvm.barrier0()
// CHECK:         atomicrmw xchg ptr addrspace(3) @[[SLOT]], i64 0
// CHECK:         atomicrmw xchg ptr addrspace(3) getelementptr {{.*}}@[[SLOT]]
// CHECK:         atomicrmw fadd ptr addrspace(1) %{{.*}}, double %{{.*}} monotonic
// CHECK:         cmpxchg ptr addrspace(3) @[[SLOT]], i64 0,
// CHECK:         atomicrmw fadd ptr addrspace(3) getelementptr {{.*}}@[[SLOT]]
// CHECK:       ret void
// A kernel whose additions have no barriers around them keeps its code:
// no slot, no barrier at its entry.
// CHECK-LABEL: define {{.*}} @_Z14scaleGradients
// CHECK-NOT:     barrier0
// CHECK-NOT:     cmpxchg
// CHECK:       ret void
// OUT-NOT: FAIL
// OUT: all checks passed
#include "../Inputs/check.h"

extern __device__ void __enzyme_autodiff(void *, ...);
__device__ int enzyme_dup, enzyme_const;

constexpr int Block = 128, Blocks = 6, N = Block * Blocks;

/// Each thread reads its neighbours through a tile in shared memory.
__device__ void smooth(const double *In, double *Out, const double *Coef) {
  __shared__ double Tile[Block];
  int T = threadIdx.x, G = blockIdx.x * Block + T;
  Tile[T] = In[G];
  __syncthreads();
  double Left = T > 0 ? Tile[T - 1] : 0, Right = T + 1 < Block ? Tile[T + 1] : 0;
  Out[G] = Coef[0] * Tile[T] * Tile[T] + Coef[1] * (Left + Right);
}

/// Called by all but the block's first warp.
__device__ void weigh(const double *In, double *Out, const double *Coef) {
  __shared__ double Tile[Block];
  int T = threadIdx.x, G = blockIdx.x * Block + T;
  Tile[T] = In[G];
  __syncthreads();
  Out[G] = Coef[0] * Tile[T] * Tile[T] + Coef[1] * Tile[T];
}

/// No barrier: nothing orders the warps' additions.
__device__ void scale(const double *In, double *Out, const double *Coef) {
  int G = blockIdx.x * Block + threadIdx.x;
  Out[G] = Coef[0] * In[G] * In[G] + Coef[1] * In[G];
}

/// The coefficients' additions repeat in a loop around the barrier (a trip
/// count known at run time only).
__device__ void relax(const double *In, double *Out, const double *Coef,
                      int Steps) {
  __shared__ double Tile[Block];
  int T = threadIdx.x, G = blockIdx.x * Block + T;
  double V = In[G];
  for (int Step = 0; Step < Steps; ++Step) {
    Tile[T] = V;
    __syncthreads();
    V = Coef[0] * Tile[T] + Coef[1] * Tile[(T + 1) % Block];
    __syncthreads();
  }
  Out[G] = V;
}

__global__ void gradients(int Which, const double *In, double *DIn, double *Out,
                          double *DOut, const double *Coef, double *DCoef) {
  if (Which == 0)
    __enzyme_autodiff((void *)smooth, enzyme_dup, In, DIn, enzyme_dup, Out, DOut,
                      enzyme_dup, Coef, DCoef);
  else if (Which == 3) {
    if (threadIdx.x < 32)
      return;
    __enzyme_autodiff((void *)weigh, enzyme_dup, In, DIn, enzyme_dup, Out, DOut,
                      enzyme_dup, Coef, DCoef);
  } else if (Which == 1)
    __enzyme_autodiff((void *)scale, enzyme_dup, In, DIn, enzyme_dup, Out, DOut,
                      enzyme_dup, Coef, DCoef);
  else
    __enzyme_autodiff((void *)relax, enzyme_dup, In, DIn, enzyme_dup, Out, DOut,
                      enzyme_dup, Coef, DCoef, enzyme_const, Which + 1);
}

__global__ void scaleGradients(const double *In, double *DIn, double *Out,
                               double *DOut, const double *Coef,
                               double *DCoef) {
  __enzyme_autodiff((void *)scale, enzyme_dup, In, DIn, enzyme_dup, Out, DOut,
                    enzyme_dup, Coef, DCoef);
}

/// The primal on the host, for central differences of sum(Out) in Coef.
static double total(int Which, const double *In, const double *Coef) {
  double Sum = 0;
  for (int B = 0; B < Blocks; ++B) {
    double V[Block];
    for (int T = 0; T < Block; ++T)
      V[T] = In[B * Block + T];
    if (Which == 2) {
      for (int Step = 0; Step < 3; ++Step) {
        double Next[Block];
        for (int T = 0; T < Block; ++T)
          Next[T] = Coef[0] * V[T] + Coef[1] * V[(T + 1) % Block];
        for (int T = 0; T < Block; ++T)
          V[T] = Next[T];
      }
      for (int T = 0; T < Block; ++T)
        Sum += V[T];
      continue;
    }
    for (int T = 0; T < Block; ++T) {
      if (Which == 3) {
        Sum += T < 32 ? 0 : Coef[0] * V[T] * V[T] + Coef[1] * V[T];
        continue;
      }
      double Left = T > 0 ? V[T - 1] : 0, Right = T + 1 < Block ? V[T + 1] : 0;
      Sum += Which == 0 ? Coef[0] * V[T] * V[T] + Coef[1] * (Left + Right)
                        : Coef[0] * V[T] * V[T] + Coef[1] * V[T];
    }
  }
  return Sum;
}

int main() {
  double *In, *DIn, *Out, *DOut, *Coef, *DCoef;
  CUDA_CHECK(cudaMallocManaged(&In, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DIn, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Out, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DOut, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Coef, 2 * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DCoef, 2 * sizeof(double)));
  const char *Names[4] = {"smooth (block sums)", "scale (no barrier)",
                          "relax (barrier in a loop)",
                          "weigh (block sums, the first warp returned)"};
  for (int Which = 0; Which < 4; ++Which) {
    for (int I = 0; I < N; ++I) {
      In[I] = 0.5 + 0.25 * std::sin(0.1 * I);
      DIn[I] = 0;
      DOut[I] = 1;
    }
    Coef[0] = Which == 2 ? 0.6 : 0.7;
    Coef[1] = Which == 2 ? 0.3 : -0.2;
    DCoef[0] = DCoef[1] = 0;
    gradients<<<Blocks, Block>>>(Which, In, DIn, Out, DOut, Coef, DCoef);
    CUDA_CHECK(cudaDeviceSynchronize());
    bool Ok = true;
    for (int K = 0; K < 2; ++K) {
      double Saved = Coef[K], H = 1e-6;
      Coef[K] = Saved + H;
      double Plus = total(Which, In, Coef);
      Coef[K] = Saved - H;
      double Minus = total(Which, In, Coef);
      Coef[K] = Saved;
      double Expected = (Plus - Minus) / (2 * H);
      if (!(std::fabs(DCoef[K] - Expected) <= 1e-6 * (1 + std::fabs(Expected)))) {
        std::printf("FAIL %s: coefficient %d: %.17g, expected %.17g\n",
                    Names[Which], K, DCoef[K], Expected);
        Ok = false;
      }
    }
    check(Names[Which], Ok);
  }
  return finish();
}
