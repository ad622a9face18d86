// A kernel that takes a functor by value holding a thrust::device_ptr (as
// Thrust's uninitialized_fill, which every device_vector of a given size
// runs), and a value to write through it. Unoptimised code copies the
// device_ptr as an i64, and the pointer is read only deep inside Thrust's
// iterator code: the copy of the functor into the kernel's own local moved
// the double's adjoint but not the pointer's shadow, and the reverse kernel
// wrote through a null shadow (a crash at -O0). Where accesses do not type
// a field, its declared type does now. Analytic gradients at -O0 and -O2,
// forward mode against them.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"
#include <thrust/device_ptr.h>
#include <thrust/memory.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const;

constexpr int N = 100;

struct Fill {
  thrust::device_ptr<double> Items;
  double Value;
  __device__ void operator()(unsigned long I) {
    ::new (static_cast<void *>(thrust::raw_pointer_cast(&Items[I])))
        double(Value * (I + 1));
  }
};

__global__ void fillKernel(unsigned long Count, Fill F) {
  unsigned long I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < Count)
    F(I);
}

// x0 and x1 are copied in, then every element is overwritten with
// a x2 (i + 1): loss = (a x2)^2 sum_i (i + 1)^2, nothing of x0 and x1.
double loss(const double *X, double A) {
  double *D;
  cudaMalloc(&D, N * sizeof(double));
  cudaMemcpy(D, X, 2 * sizeof(double), cudaMemcpyHostToDevice);
  fillKernel<<<(N + 63) / 64, 64>>>(N, Fill{thrust::device_pointer_cast(D),
                                             A * X[2]});
  double Back[N];
  cudaMemcpy(Back, D, N * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(D);
  double Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += Back[I] * Back[I];
  return Sum;
}

int main() {
  double X[3] = {0.5, -1.5, 0.75}, G[3] = {};
  const double A = 1.25;
  double S = 0;
  for (int I = 0; I < N; ++I)
    S += double(I + 1) * (I + 1);
  double GA = __enzyme_autodiff((void *)loss, enzyme_dup, X, G, A);
  checkClose("d/dx0", G[0], 0, 1e-12);
  checkClose("d/dx1", G[1], 0, 1e-12);
  checkClose("d/dx2", G[2], 2 * A * A * X[2] * S, 1e-12);
  checkClose("d/da", GA, 2 * A * X[2] * X[2] * S, 1e-12);
  double T[3] = {0.3, -0.2, 0.7};
  checkClose("tangent",
             __enzyme_fwddiff((void *)loss, enzyme_dup, X, T, enzyme_const, A),
             2 * A * A * X[2] * S * T[2], 1e-12);
  return finish();
}
