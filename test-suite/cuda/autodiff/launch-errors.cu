// Kernels launched from differentiated host code that cannot have derivative
// kernels are errors of the device compilation, at the kernel, naming it.
// REQUIRES: cuda-emulation
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -c -DNOT_DIFFERENTIABLE %s -o %t.o 2>&1 | FileCheck %s --check-prefix=BODY
// CHECK: launch-errors.cu:[[@LINE+12]]:{{[0-9]+}}: error: cannot differentiate kernel 'step(Pair, double*)', which differentiated host code launches: its parameter 1 is passed by value as a struct or vector; derivative kernels take pointers, integers, float and double
// Forward mode has no derivative kernels: the link says so.
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -DFORWARD %s -o %t.fwd 2>&1 | FileCheck %s --check-prefix=FORWARD
// FORWARD: error: {{.*}}cannot differentiate 'forward_run(double*)': forward mode of host code that launches kernels is not supported
// BODY: launch-errors.cu:{{[0-9]+}}:{{[0-9]+}}: error: cannot differentiate kernel 'opaque(double*)', which differentiated host code launches: {{.*}}shuffle

#ifndef FORWARD
struct Pair {
  double A, B;
};

__global__ void step(Pair P, double *X) {
  X[threadIdx.x] *= P.A + P.B;
}

// A shuffle over part of a warp has no derivative rule.
__global__ void opaque(double *X) {
  X[threadIdx.x] = __shfl_down_sync(0xffffffff, X[threadIdx.x], 1, 16);
}

void run(double *X) {
#ifdef NOT_DIFFERENTIABLE
  opaque<<<1, 32>>>(X);
#else
  step<<<1, 32>>>(Pair{1, 2}, X);
#endif
}

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
void gradient(double *X, double *DX) {
  __enzyme_autodiff((void *)run, enzyme_dup, X, DX);
}
#else
__global__ void plain(double *X) { X[threadIdx.x] *= X[threadIdx.x]; }
void forward_run(double *X) { plain<<<1, 32>>>(X); }
extern int enzyme_dup;
void __enzyme_fwddiff(void *, ...);
int main() {
  double *X = nullptr, *DX = nullptr;
  __enzyme_fwddiff((void *)forward_run, enzyme_dup, X, DX);
  return 0;
}
#endif
