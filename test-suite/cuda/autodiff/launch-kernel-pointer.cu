// A launch through the runtime API whose kernel comes through a function
// pointer parameter (as Thrust's and CUB's algorithms launch theirs) cannot
// be differentiated: derivative kernels are made for kernels that host code
// launches by name. The error says so at the request, naming the launch
// call, in both modes (before, it said that no request reaches the launch
// and suggested naming a launcher, which cannot help).
// REQUIRES: cuda-emulation
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t 2>&1 | FileCheck %s
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t 2>&1 | FileCheck %s
// CHECK-DAG: launch-kernel-pointer.cu:[[#REVERSE:]]:{{[0-9]+}}: {{.*}}cannot differentiate 'loss(double*, int)': cannot differentiate a kernel launch (cudaLaunchKernel) whose kernel the call does not name: derivative kernels are made for the kernels that host code launches by name, and this one comes through a function pointer (passed down through parameters, as Thrust's and CUB's algorithms launch theirs); write the kernel and launch it with <<<...>>> (docs/cuda.md)
// CHECK-DAG: launch-kernel-pointer.cu:{{[0-9]+}}:{{[0-9]+}}: {{.*}}cannot differentiate 'loss(double*, int)': cannot differentiate a kernel launch (cudaLaunchKernel) whose kernel the call does not name

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const;

__global__ void square(double *X, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    X[I] *= X[I];
}

__attribute__((noinline)) void launch(void (*Kernel)(double *, int),
                                      double *X, int N) {
  void *Args[] = {&X, &N};
  cudaLaunchKernel((const void *)Kernel, dim3((N + 31) / 32), dim3(32), Args,
                   0, 0);
}

double loss(double *X, int N) {
  double *D;
  cudaMalloc(&D, N * sizeof(double));
  cudaMemcpy(D, X, N * sizeof(double), cudaMemcpyHostToDevice);
  launch(square, D, N);
  double Sum = 0, Back[64];
  cudaMemcpy(Back, D, N * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(D);
  for (int I = 0; I < N; ++I)
    Sum += Back[I];
  return Sum;
}

int main() {
  double X[64], DX[64] = {}, TX[64] = {};
  for (int I = 0; I < 64; ++I)
    X[I] = I;
  __enzyme_autodiff((void *)loss, enzyme_dup, X, DX, enzyme_const, 64);
  return __enzyme_fwddiff((void *)loss, enzyme_dup, X, TX, enzyme_const, 64) >
         0;
}
