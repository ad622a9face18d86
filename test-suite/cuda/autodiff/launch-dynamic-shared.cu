// `extern __shared__` arrays in kernels launched from differentiated host
// code (docs/cuda.md): the derivative kernels run with twice the launch's
// dynamic shared memory and keep the shadows after the primal data. A block
// reduction in a double array (with 40 KiB, which doubled needs the
// kernel's opt-in), a stencil whose tile a device function reads
// (the shadow's address in a callee), and a byte array cast to float (the
// pattern of CUDA's samples), each launched with the dynamic size as the
// third launch parameter. Reverse mode against central differences, forward
// mode against reverse, at -O0 and -O2.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// The derivative kernels read the shadows' offset from their last
// parameter, and the info tells the host to double the dynamic bytes; the
// reverse kernel clears the shadows first.
// RUN: %clangxx_enzyme -fenzyme -O2 --cuda-device-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=DEVICE
// A device-side request through an `extern __shared__` array is an error
// that says why: the shadow needs the derivative's own launch.
// RUN: not %clangxx_enzyme -fenzyme -O2 -DDEVICE_REQUEST -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=DEVICE-REQUEST
// CHECK-NOT: FAIL
// CHECK: all checks passed
// DEVICE-REQUEST: launch-dynamic-shared.cu:{{[0-9]+}}:{{[0-9]+}}: error: cannot differentiate 'neighbour(float const*)': a value that carries a derivative is stored to the `extern __shared__` array 'Tile', whose shadow needs dynamic shared memory that only the derivatives of launches from differentiated host code provide
// DEVICE-DAG: @_enzyme_kernel_info__Z8blockSumPKdPdi = weak_odr addrspace(1) global [4 x i64] [i64 {{[0-9]+}}, i64 3, i64 0, i64 1]
// DEVICE-DAG: @_enzyme_kernel_tangent_info__Z8blockSumPKdPdi = weak_odr addrspace(1) global [4 x i64] [i64 0, i64 3, i64 0, i64 1]
// DEVICE-DAG: @_enzyme_dynamic_shadow_offset = internal addrspace(3) global i32 undef
// DEVICE: define {{.*}}ptx_kernel void @_enzyme_kernel_reverse__Z8blockSumPKdPdi(ptr {{.*}}, ptr {{.*}}, i32 {{.*}}, ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, i32 [[OFFSET:%[0-9]+]])
// DEVICE: store i32 [[OFFSET]], ptr addrspace(3) @_enzyme_dynamic_shadow_offset
// DEVICE: getelementptr i8, ptr addrspace(3) @Buf, i64
// DEVICE: store i32 0, ptr addrspace(3)
// DEVICE: call void @llvm.nvvm.barrier0()
#include "../Inputs/check.h"

__global__ void blockSum(const double *X, double *Out, int N) {
  extern __shared__ double Buf[];
  int T = threadIdx.x, I = blockIdx.x * blockDim.x + T;
  Buf[T] = I < N ? X[I] * X[I] : 0;
  __syncthreads();
  for (int S = blockDim.x / 2; S > 0; S /= 2) {
    if (T < S)
      Buf[T] += Buf[T + S];
    __syncthreads();
  }
  if (T == 0)
    Out[blockIdx.x] = Buf[0];
}

extern __shared__ float Tile[];

__device__ __noinline__ float stencilAt(int T) {
  return 0.25f * Tile[T - 1] + 0.5f * Tile[T] * Tile[T] + 0.25f * Tile[T + 1];
}

// Tile holds the block's points and one halo point on each side.
__global__ void smooth(const float *U, float *V, int N) {
  int T = threadIdx.x + 1, I = blockIdx.x * blockDim.x + threadIdx.x;
  Tile[T] = I < N ? U[I] : 0;
  if (threadIdx.x == 0)
    Tile[0] = I > 0 ? U[I - 1] : 0;
  if (threadIdx.x == blockDim.x - 1)
    Tile[T + 1] = I + 1 < N ? U[I + 1] : 0;
  __syncthreads();
  if (I < N)
    V[I] = stencilAt(T);
}

__global__ void scaleByMean(const float *V, float *W, int N) {
  extern __shared__ unsigned char Raw[];
  float *Part = reinterpret_cast<float *>(Raw);
  int T = threadIdx.x, I = blockIdx.x * blockDim.x + T;
  Part[T] = I < N ? V[I] : 0;
  __syncthreads();
  float Sum = 0;
  for (int K = 0; K < blockDim.x; ++K)
    Sum += Part[K];
  if (I < N)
    W[I] = V[I] * Sum / blockDim.x;
}

#ifdef DEVICE_REQUEST
__device__ float neighbour(const float *U) {
  Tile[threadIdx.x] = U[threadIdx.x] * U[threadIdx.x];
  __syncthreads();
  return Tile[(threadIdx.x + 1) % blockDim.x];
}
extern __device__ int enzyme_dup;
__device__ void __enzyme_autodiff(void *, ...);
__global__ void neighbourGradient(const float *U, float *DU) {
  __enzyme_autodiff((void *)neighbour, enzyme_dup, U, DU);
}
#endif

double loss(const double *HostX, const float *HostU, int N) {
  const int Threads = 64, Blocks = (N + Threads - 1) / Threads;
  double *X, *Out;
  float *U, *V, *W;
  cudaMalloc(&X, N * sizeof(double));
  cudaMalloc(&Out, Blocks * sizeof(double));
  cudaMalloc(&U, N * sizeof(float));
  cudaMalloc(&V, N * sizeof(float));
  cudaMalloc(&W, N * sizeof(float));
  cudaMemcpy(X, HostX, N * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(U, HostU, N * sizeof(float), cudaMemcpyHostToDevice);
  // 40 KiB, more than the kernel uses: doubled, beyond the 48 KiB a kernel
  // may have without opting in, which the derivative's launch does.
  blockSum<<<Blocks, Threads, 40 * 1024>>>(X, Out, N);
  smooth<<<Blocks, Threads, (Threads + 2) * sizeof(float)>>>(U, V, N);
  scaleByMean<<<Blocks, Threads, Threads * sizeof(float)>>>(V, W, N);
  double *HostOut = new double[Blocks];
  float *HostW = new float[N];
  cudaMemcpy(HostOut, Out, Blocks * sizeof(double), cudaMemcpyDeviceToHost);
  cudaMemcpy(HostW, W, N * sizeof(float), cudaMemcpyDeviceToHost);
  double Sum = 0;
  for (int B = 0; B < Blocks; ++B)
    Sum += sin(HostOut[B]);
  for (int I = 0; I < N; ++I)
    Sum += HostW[I];
  delete[] HostOut;
  delete[] HostW;
  cudaFree(X);
  cudaFree(Out);
  cudaFree(U);
  cudaFree(V);
  cudaFree(W);
  return Sum;
}

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

const int N = 150;

int main() {
  double X[N], DX[N], TX[N];
  float U[N], DU[N], TU[N];
  for (int I = 0; I < N; ++I) {
    X[I] = 0.02 * I - 0.5;
    U[I] = 0.25f + 0.005f * I;
    DX[I] = 0;
    DU[I] = 0;
    TX[I] = std::cos(0.2 * I);
    TU[I] = 0.5f;
  }
  __enzyme_autodiff((void *)loss, enzyme_dup, X, DX, enzyme_dup, U, DU,
                    enzyme_const, N);
  CUDA_CHECK(cudaDeviceSynchronize());
  // X enters through one block sum each: d/dX[i] = cos(sum) 2 X[i].
  bool XOk = true;
  for (int B = 0; B * 64 < N; ++B) {
    double Sum = 0;
    for (int I = B * 64; I < N && I < (B + 1) * 64; ++I)
      Sum += X[I] * X[I];
    for (int I = B * 64; I < N && I < (B + 1) * 64; ++I)
      if (!(std::fabs(DX[I] - std::cos(Sum) * 2 * X[I]) <= 1e-12)) {
        std::printf("d/dX[%d]: got %.17g, expected %.17g\n", I, DX[I],
                    std::cos(Sum) * 2 * X[I]);
        XOk = false;
      }
  }
  check("block sum in extern shared double", XOk);
  // U goes through the stencil and the byte array: central differences
  // (float arithmetic, a step the floats represent).
  bool UOk = true;
  float Copy[N];
  for (int I = 0; I < N; ++I)
    Copy[I] = U[I];
  const float H = 1.0f / 256;
  for (int I = 0; I < N; I += 7) {
    Copy[I] = U[I] + H;
    double Up = loss(X, Copy, N);
    Copy[I] = U[I] - H;
    double Down = loss(X, Copy, N);
    Copy[I] = U[I];
    double Expected = (Up - Down) / (2 * H);
    if (!(std::fabs(DU[I] - Expected) <= 2e-3 * (1 + std::fabs(Expected)))) {
      std::printf("d/dU[%d]: got %.9g, expected %.9g\n", I, DU[I], Expected);
      UOk = false;
    }
  }
  check("stencil tile and byte array in extern shared memory", UOk);
  // Forward mode along (TX, TU): the gradient's projection.
  double Tangent = __enzyme_fwddiff((void *)loss, enzyme_dup, X, TX,
                                    enzyme_dup, U, TU, enzyme_const, N);
  double Projection = 0;
  for (int I = 0; I < N; ++I)
    Projection += DX[I] * TX[I] + DU[I] * TU[I];
  checkClose("forward agrees with reverse", Tangent, Projection, 1e-5);
  return finish();
}
