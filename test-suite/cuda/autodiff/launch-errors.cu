// Kernels launched from differentiated host code that cannot have derivative
// kernels are errors of the device compilation, at the kernel, naming it.
// REQUIRES: cuda-emulation
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -c -DNOT_DIFFERENTIABLE %s -o %t.o 2>&1 | FileCheck %s --check-prefix=BODY
// CHECK: launch-errors.cu:[[@LINE+21]]:{{[0-9]+}}: error: cannot differentiate kernel 'step(Pair, double*)', which differentiated host code launches: its parameter 1 is a struct passed by value that holds a union, a vector, a floating-point type other than float and double, or more than 64 floats; derivative kernels take pointers, integers, float, double and structs of them (pass other values through a pointer)
// The same in forward mode, for the tangent kernel.
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -c -DFORWARD %s -o %t.o 2>&1 | FileCheck %s --check-prefix=FORWARD
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -c -DFORWARD -DNOT_DIFFERENTIABLE %s -o %t.o 2>&1 | FileCheck %s --check-prefix=FORWARD-BODY
// FORWARD: launch-errors.cu:[[@LINE+17]]:{{[0-9]+}}: error: cannot differentiate kernel 'step(Pair, double*)' in forward mode, which differentiated host code launches: its parameter 1 is a struct passed by value that holds a union
// FORWARD-BODY: launch-errors.cu:{{[0-9]+}}:{{[0-9]+}}: error: cannot differentiate kernel 'opaque(double*)' in forward mode, which differentiated host code launches: {{.*}}assembly
// BODY: launch-errors.cu:{{[0-9]+}}:{{[0-9]+}}: error: cannot differentiate kernel 'opaque(double*)', which differentiated host code launches: {{.*}}assembly

// Structs of pointers and numbers work (launch-struct-parameters.cu); the
// bytes of a union may or may not be a float, which the host and device
// halves of the derivative could not agree on.
union Word {
  double Value;
  long long Bits;
};
struct Pair {
  Word A;
  double B;
};

__global__ void step(Pair P, double *X) {
  X[threadIdx.x] *= P.A.Value + P.B;
}

// Assembly that computes on a double has no derivative.
__global__ void opaque(double *X) {
  double Y;
  asm("cvt.rzi.f64.f64 %0, %1;" : "=d"(Y) : "d"(X[threadIdx.x]));
  X[threadIdx.x] = Y;
}

void run(double *X) {
#ifdef NOT_DIFFERENTIABLE
  opaque<<<1, 32>>>(X);
#else
  step<<<1, 32>>>(Pair{{1}, 2}, X);
#endif
}

extern int enzyme_dup;
#ifdef FORWARD
void __enzyme_fwddiff(void *, ...);
void tangent(double *X, double *DX) {
  __enzyme_fwddiff((void *)run, enzyme_dup, X, DX);
}
#else
void __enzyme_autodiff(void *, ...);
void gradient(double *X, double *DX) {
  __enzyme_autodiff((void *)run, enzyme_dup, X, DX);
}
#endif
