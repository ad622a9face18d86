// A launch through the runtime API whose kernel comes through a function
// pointer parameter, as Thrust's and CUB's algorithms launch theirs: the
// function that launches is specialised for each kernel its callers pass
// (at -O0 too, where the parameter lives in a local), so the launch names
// the kernel and gets its derivative kernels. Before, this was an error.
// The same for `Kernel<<<...>>>(...)` with the kernel a parameter (Thrust's
// triple_chevron launches so): the function is specialised for each kernel,
// and a kernel's host stub is no possible target of other calls through
// pointers of its type.
// Analytic gradients in both modes, -O0 and -O2.
// A kernel the program chooses at run time (read from a table) cannot be
// differentiated: the error says so at the request, naming the launch call,
// in both modes.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate -O0 -DCHOSEN %s -o %t 2>&1 | FileCheck %s --check-prefix=CHOSEN
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -DCHOSEN %s -o %t 2>&1 | FileCheck %s --check-prefix=CHOSEN
// CHECK-NOT: FAIL
// CHECK: all checks passed
// CHOSEN-DAG: launch-kernel-pointer.cu:{{[0-9]+}}:{{[0-9]+}}: {{.*}}cannot differentiate 'loss(double*, int)': cannot differentiate a kernel launch (cudaLaunchKernel) whose kernel the program chooses at run time: derivative kernels are made for the kernels that host code names, at the launch or in the calls that pass the kernel down to it (as Thrust's and CUB's algorithms do), and this one comes through a function pointer that is not one of them (read from memory, or chosen by a condition); launch each kernel where it is named (docs/cuda.md)
// CHOSEN-DAG: launch-kernel-pointer.cu:{{[0-9]+}}:{{[0-9]+}}: {{.*}}cannot differentiate 'loss(double*, int)': cannot differentiate a kernel launch (cudaLaunchKernel) whose kernel the program chooses at run time
#include "../Inputs/check.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const;

__global__ void square(double *X, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    X[I] *= X[I];
}

__global__ void cube(double *X, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    X[I] *= X[I] * X[I];
}

__attribute__((noinline)) void launch(void (*Kernel)(double *, int),
                                      double *X, int N) {
  void *Args[] = {&X, &N};
  cudaLaunchKernel((const void *)Kernel, dim3((N + 31) / 32), dim3(32), Args,
                   0, 0);
}

__global__ void twice(double *X, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    X[I] *= 2;
}

__attribute__((noinline)) void chevron(void (*Kernel)(double *, int),
                                       double *X, int N) {
  Kernel<<<(N + 31) / 32, 32>>>(X, N);
}

// One more level, as Thrust passes its kernels through several functions.
__attribute__((noinline)) void launchTwice(void (*Kernel)(double *, int),
                                           double *X, int N) {
  launch(Kernel, X, N);
  launch(Kernel, X, N);
}

#ifdef CHOSEN
void (*Kernels[])(double *, int) = {square, cube};
int Choice = 1;
#endif

double loss(double *X, int N) {
  double *D;
  cudaMalloc(&D, N * sizeof(double));
  cudaMemcpy(D, X, N * sizeof(double), cudaMemcpyHostToDevice);
#ifdef CHOSEN
  launch(Kernels[Choice], D, N);
#else
  launch(square, D, N);   // x^2
  launchTwice(cube, D, N); // x^18
  chevron(twice, D, N);    // 2 x^18
#endif
  double Sum = 0, Back[64];
  cudaMemcpy(Back, D, N * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(D);
  for (int I = 0; I < N; ++I)
    Sum += Back[I];
  return Sum;
}

int main() {
  const int N = 40;
  double X[64], DX[64] = {}, TX[64];
  for (int I = 0; I < N; ++I) {
    X[I] = 0.5 + 0.02 * I;
    TX[I] = 1;
  }
  __enzyme_autodiff((void *)loss, enzyme_dup, X, DX, enzyme_const, N);
  bool Ok = true;
  double Tangent = 0;
  for (int I = 0; I < N; ++I) {
    double Expected = 36 * std::pow(X[I], 17);
    Ok &= std::fabs(DX[I] - Expected) <= 1e-12 * std::fabs(Expected);
    Tangent += Expected;
  }
  check("reverse mode through kernel pointers", Ok);
  checkClose("forward mode through kernel pointers",
             __enzyme_fwddiff((void *)loss, enzyme_dup, X, TX, enzyme_const, N),
             Tangent, 1e-12);
  return finish();
}
