// Kernels whose blocks communicate (cooperative groups' grid
// synchronisation, a __threadfence() before a flag that tells the last
// block to finish a reduction, an acquire load of such a flag) cannot be
// differentiated in reverse mode: the reverse pass runs the blocks'
// derivatives without that order, so the adjoints one block hands another
// would race (a silent wrong gradient on a GPU before this check). Each is
// an error of the device compilation that names the kernel and what orders
// memory. Block-scope fences and relaxed atomics are fine.
// REQUIRES: cuda
// RUN: not %clangxx_enzyme -fenzyme -O2 --cuda-gpu-arch=sm_90 -c -DGRID %s -o %t.o 2>&1 | FileCheck %s --check-prefix=GRID
// RUN: not %clangxx_enzyme -fenzyme -O2 --cuda-gpu-arch=sm_90 -c -DFENCE %s -o %t.o 2>&1 | FileCheck %s --check-prefix=FENCE
// RUN: not %clangxx_enzyme -fenzyme -O0 --cuda-gpu-arch=sm_90 -c -DACQUIRE %s -o %t.o 2>&1 | FileCheck %s --check-prefix=ACQUIRE
// RUN: not %clangxx_enzyme -fenzyme -O2 --cuda-gpu-arch=sm_90 -c -DDEVICE_REQUEST %s -o %t.o 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: %clangxx_enzyme -fenzyme -O2 --cuda-gpu-arch=sm_90 -c %s -o %t.o
// GRID: cross-block-ordering.cu:{{[0-9]+}}:{{[0-9]+}}: error: cannot differentiate kernel 'kernel(double*, double*, int)', which differentiated host code launches: cannot differentiate inline assembly that orders memory beyond the block ('atom.add.release.gpu{{.*}}': cooperative groups' grid synchronisation or a device-scope atomic) in reverse mode: it orders memory between the blocks of a launch
// FENCE: cross-block-ordering.cu:{{[0-9]+}}:{{[0-9]+}}: error: cannot differentiate kernel 'kernel(double*, double*, int)', which differentiated host code launches: cannot differentiate __threadfence() in reverse mode: it orders memory between the blocks of a launch, and the reverse pass runs the blocks' derivatives without that order (the adjoints one block hands another would race); split the kernel where its blocks communicate into kernels launched one after the other
// ACQUIRE: cross-block-ordering.cu:{{[0-9]+}}:{{[0-9]+}}: error: cannot differentiate kernel 'kernel(double*, double*, int)', which differentiated host code launches: cannot differentiate an atomic load or store with acquire or release ordering beyond the block in reverse mode
// DEVICE: cross-block-ordering.cu:{{[0-9]+}}:{{[0-9]+}}: error: {{.*}}cannot differentiate __threadfence() in reverse mode
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern __host__ __device__ double __enzyme_autodiff(void *, ...);
#ifdef DEVICE_REQUEST
__device__ int enzyme_dup;
#else
int enzyme_dup, enzyme_const;
#endif

__device__ unsigned Arrived;
__device__ int Ready;

__global__ void kernel(double *X, double *Partial, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  double V = I < N ? X[I] * X[I] : 0;
#if defined(GRID)
  Partial[I] = V;
  cg::this_grid().sync();
  if (I < N)
    X[I] = Partial[(I + blockDim.x) % (gridDim.x * blockDim.x)];
#elif defined(FENCE)
  // The last block to arrive adds the blocks' partial sums.
  if (threadIdx.x == 0) {
    Partial[blockIdx.x] = V;
    __threadfence();
    if (atomicInc(&Arrived, gridDim.x) == gridDim.x - 1) {
      double Sum = 0;
      for (int B = 0; B < gridDim.x; ++B)
        Sum += Partial[B];
      X[0] = Sum;
    }
  }
#elif defined(ACQUIRE)
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    Partial[0] = V;
    __atomic_store_n(&Ready, 1, __ATOMIC_RELEASE);
  } else if (threadIdx.x == 0) {
    while (!__atomic_load_n(&Ready, __ATOMIC_ACQUIRE))
      ;
    X[I] = Partial[0] * 2;
  }
#else
  // Within a block: a block-scope fence, a barrier, relaxed atomics.
  __shared__ double Sum;
  if (threadIdx.x == 0)
    Sum = 0;
  __syncthreads();
  atomicAdd(&Sum, V);
  __threadfence_block();
  __syncthreads();
  if (threadIdx.x == 0)
    atomicAdd(&Partial[0], Sum);
#endif
}

__device__ double lastBlockSum(double *Partial, double V) {
  Partial[blockIdx.x] = V;
  __threadfence();
  return Partial[0];
}

__global__ void deviceRequest(double *X, double *DX, double *Partial,
                              double *DPartial) {
#ifdef DEVICE_REQUEST
  __enzyme_autodiff((void *)lastBlockSum, enzyme_dup, Partial, DPartial,
                    X[threadIdx.x]);
#endif
}

#ifndef DEVICE_REQUEST
double loss(double *X, double *Partial, int N) {
  kernel<<<N / 32, 32>>>(X, Partial, N);
  return 0;
}

void gradient(double *X, double *DX, double *P, double *DP, int N) {
  __enzyme_autodiff((void *)loss, enzyme_dup, X, DX, enzyme_dup, P, DP,
                    enzyme_const, N);
}
#endif
