// Differentiated host code that copies device memory with derivatives into
// a static array (which has no shadow) and reads it back: the derivatives
// were dropped without a word (a zero gradient). Now the copy's derivative
// stops the program with a message, in both modes, as a copy into a
// __device__ variable without a shadow did. Into a local array it works.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t && %t | FileCheck %s --check-prefix=LOCAL
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 -DSTATIC %s -o %t.static && not --crash %t.static 2>&1 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -DSTATIC %s -o %t.static && not --crash %t.static 2>&1 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -DSTATIC -DFORWARD %s -o %t.forward && not --crash %t.forward 2>&1 | FileCheck %s
// LOCAL: gradient 6
// CHECK: enzyme: in the derivative of cudaMemcpy: the values it copies carry derivatives, but the memory it copies them into has none (a global or static array, or memory passed with enzyme_const); copy them into memory with derivatives (a local array, or memory passed with enzyme_dup)
#include <cstdio>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const;

__global__ void square(double *X, int N) {
  int I = threadIdx.x;
  if (I < N)
    X[I] *= X[I];
}

double loss(double *X, int N) {
  double *D;
  cudaMalloc(&D, N * sizeof(double));
  cudaMemcpy(D, X, N * sizeof(double), cudaMemcpyHostToDevice);
  square<<<1, 32>>>(D, N);
#ifdef STATIC
  static double Back[32];
#else
  double Back[32];
#endif
  cudaMemcpy(Back, D, N * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(D);
  double Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += Back[I];
  return Sum;
}

int main() {
  double X[8], DX[8] = {};
  for (int I = 0; I < 8; ++I)
    X[I] = I;
#ifdef FORWARD
  DX[3] = 1;
  std::printf("tangent %g\n",
              __enzyme_fwddiff((void *)loss, enzyme_dup, X, DX, enzyme_const, 8));
#else
  __enzyme_autodiff((void *)loss, enzyme_dup, X, DX, enzyme_const, 8);
  std::printf("gradient %g\n", DX[3]);
#endif
  return 0;
}
