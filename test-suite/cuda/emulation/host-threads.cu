// Several host threads launch kernels at the same time (one stream each, as
// multi-threaded host code does); every launch runs whole and right.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fcuda-emulate -O2 %s -o %t -lpthread && %t | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -O2 %s -o %t.gpu -lpthread && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"
#include <thread>
#include <vector>

__global__ void fill(int *Out, int Value, int N) {
  __shared__ int Block[128];
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  Block[threadIdx.x] = Value;
  __syncthreads();
  if (I < N)
    Out[I] = Block[(threadIdx.x + 1) % blockDim.x] + I;
}

int main() {
  const int Threads = 4, Rounds = 20, N = 1000;
  std::vector<int *> Buffers(Threads);
  for (int *&B : Buffers)
    CUDA_CHECK(cudaMalloc(&B, N * sizeof(int)));
  std::vector<int> Wrong(Threads, 0);
  std::vector<std::thread> Host;
  for (int T = 0; T < Threads; ++T)
    Host.emplace_back([&, T] {
      cudaStream_t Stream;
      cudaStreamCreate(&Stream);
      std::vector<int> Back(N);
      for (int R = 0; R < Rounds; ++R) {
        int Value = 1000 * T + R;
        fill<<<(N + 127) / 128, 128, 0, Stream>>>(Buffers[T], Value, N);
        cudaMemcpyAsync(Back.data(), Buffers[T], N * sizeof(int),
                        cudaMemcpyDeviceToHost, Stream);
        cudaStreamSynchronize(Stream);
        for (int I = 0; I < N; ++I)
          Wrong[T] += Back[I] != Value + I;
      }
      cudaStreamDestroy(Stream);
    });
  for (std::thread &H : Host)
    H.join();
  for (int T = 0; T < Threads; ++T)
    check("a host thread's launches", Wrong[T] == 0);
  return finish();
}
