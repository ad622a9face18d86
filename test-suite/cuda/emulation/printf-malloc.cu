// Device printf (formats, widths, strings, 64-bit values), device malloc and
// free, and clock() moving forward.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK: int 42 -7 unsigned 4000000000 hex ff long 12345678901234 char A
// CHECK: double 3.14159 float 2.500000 exp 1.250e-03 width [   17] [17   ] [0017] [ 2.50]
// CHECK: string [enzyme] [  emu] pointer-is-null 1 percent %
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"

__global__ void formats(const char *Word) {
  if (threadIdx.x != 0)
    return;
  printf("int %d %i unsigned %u hex %x long %lld char %c\n", 42, -7,
         4000000000u, 255, 12345678901234ll, 'A');
  printf("double %g float %f exp %.3e width [%5d] [%-5d] [%04d] [%*.2f]\n",
         3.14159, 2.5f, 0.00125, 17, 17, 17, 5, 2.5);
  printf("string [%s] [%5s] pointer-is-null %d percent %%\n", Word, "emu",
         (void *)nullptr == nullptr);
}

__global__ void heap(int *Out) {
  int N = threadIdx.x + 1;
  int *Block = static_cast<int *>(malloc(N * sizeof(int)));
  for (int I = 0; I < N; ++I)
    Block[I] = I * threadIdx.x;
  int Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += Block[I];
  free(Block);
  Out[threadIdx.x] = Sum;
  long long Start = clock64();
  while (clock64() == Start) {
  }
}

int main() {
  char *Word;
  CUDA_CHECK(cudaMallocManaged(&Word, 8));
  std::snprintf(Word, 8, "enzyme");
  formats<<<1, 32>>>(Word);
  CUDA_CHECK(cudaDeviceSynchronize());
  std::fflush(stdout);

  int *Out;
  CUDA_CHECK(cudaMallocManaged(&Out, 64 * sizeof(int)));
  heap<<<1, 64>>>(Out);
  CUDA_CHECK(cudaDeviceSynchronize());
  bool Ok = true;
  for (int T = 0; T < 64; ++T)
    Ok &= Out[T] == T * T * (T + 1) / 2;
  check("device malloc and free", Ok);
  return finish();
}
