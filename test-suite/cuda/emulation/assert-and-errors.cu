// What a program sees when things go wrong: invalid launch configurations
// fail with CUDA's error and leave the device usable; a failed device
// assert prints CUDA's message and makes every later call fail.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 2>&1 | FileCheck %s
// RUN: %clangxx_enzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 2>&1 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -O2 %s -o %t.gpu && %t.gpu 2>&1 | FileCheck %s %}
// CUDA 13 reports impossible dimensions as invalid arguments (seen on an H100).
// CHECK: block of 0 threads: cudaErrorInvalidValue invalid argument
// CHECK: block of 1025 threads: cudaErrorInvalidValue
// CHECK: block 32x32x2: cudaErrorInvalidValue
// CHECK: block z 65: cudaErrorInvalidValue
// CHECK: grid y 65536: cudaErrorInvalidValue
// CHECK: 64 KiB dynamic shared memory: cudaErrorInvalidValue invalid argument
// CHECK: error cleared: cudaSuccess
// CHECK: opted in: cudaSuccess cudaSuccess
// CHECK: a good launch after errors: cudaSuccess 1024
// CHECK: bad memcpy kind: cudaErrorInvalidMemcpyDirection
// CHECK: free of a pointer not from cudaMalloc: cudaErrorInvalidValue
// CHECK: unknown symbol: cudaErrorInvalidSymbol
// CHECK: assert-and-errors.cu:[[#LINE:]]: {{.*}}checkPositive{{.*}}: block: [1,0,0], thread: [3,0,0] Assertion `Value > 0` failed.
// CHECK: after the assert: cudaErrorAssert device-side assert triggered
// CHECK: later calls: cudaErrorAssert cudaErrorAssert
#include "../Inputs/check.h"
#include <cassert>

__global__ void count(int *Counter) { atomicAdd(Counter, 1); }

__global__ void bigShared(int *Out) {
  extern __shared__ int Scratch[];
  Scratch[threadIdx.x] = threadIdx.x;
  __syncthreads();
  Out[threadIdx.x] = Scratch[(threadIdx.x + 1) % blockDim.x];
}

__global__ void checkPositive(const int *Values) {
  int Value = Values[blockIdx.x * blockDim.x + threadIdx.x];
  assert(Value > 0);
}

static void report(const char *What) {
  cudaError_t E = cudaGetLastError();
  std::printf("%s: %s %s\n", What, cudaGetErrorName(E), cudaGetErrorString(E));
}

int main() {
  int *Counter;
  CUDA_CHECK(cudaMallocManaged(&Counter, 1024 * sizeof(int)));
  *Counter = 0;
  count<<<1, 0>>>(Counter);
  report("block of 0 threads");
  count<<<1, 1025>>>(Counter);
  report("block of 1025 threads");
  count<<<1, dim3(32, 32, 2)>>>(Counter);
  report("block 32x32x2");
  count<<<1, dim3(1, 1, 65)>>>(Counter);
  report("block z 65");
  count<<<dim3(1, 65536), 1>>>(Counter);
  report("grid y 65536");
  bigShared<<<1, 32, 64 * 1024>>>(Counter);
  report("64 KiB dynamic shared memory");
  report("error cleared");
  cudaError_t Opt = cudaFuncSetAttribute(
      bigShared, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
  bigShared<<<1, 32, 64 * 1024>>>(Counter);
  std::printf("opted in: %s %s\n", cudaGetErrorName(Opt),
              cudaGetErrorName(cudaGetLastError()));
  CUDA_CHECK(cudaDeviceSynchronize());
  *Counter = 0;
  count<<<4, 256>>>(Counter);
  cudaError_t Sync = cudaDeviceSynchronize();
  std::printf("a good launch after errors: %s %d\n", cudaGetErrorName(Sync),
              *Counter);

  int Host[4];
  std::printf("bad memcpy kind: %s\n",
              cudaGetErrorName(cudaMemcpy(Host, Counter, sizeof Host,
                                          static_cast<cudaMemcpyKind>(7))));
  cudaGetLastError();
  std::printf("free of a pointer not from cudaMalloc: %s\n",
              cudaGetErrorName(cudaFree(Host)));
  cudaGetLastError();
  std::printf("unknown symbol: %s\n",
              cudaGetErrorName(cudaMemcpyToSymbol(Host, Host, 4)));
  cudaGetLastError();

  int *Values;
  CUDA_CHECK(cudaMallocManaged(&Values, 64 * sizeof(int)));
  for (int I = 0; I < 64; ++I)
    Values[I] = I == 35 ? 0 : I + 1;
  std::fflush(stdout);
  checkPositive<<<2, 32>>>(Values);
  cudaError_t E = cudaDeviceSynchronize();
  std::printf("after the assert: %s %s\n", cudaGetErrorName(E),
              cudaGetErrorString(E));
  std::printf("later calls: %s %s\n",
              cudaGetErrorName(cudaMalloc((void **)&Values, 16)),
              cudaGetErrorName(cudaGetLastError()));
  return 0;
}
