// PTX that device code writes as inline assembly, and the reinterpretations
// of bits that CUDA's headers call in libdevice:
//  - loads with a cache operator (`ld.global.nc.v2.u64`, as CUB loads its
//    tiles, doubles read as integers) are plain loads to the engine, whose
//    reinterpretation as doubles it follows (before: a zero gradient);
//  - __double2hiint, __double2loint, __hiloint2double, __longlong_as_double
//    and __float_as_uint are the casts and shifts they stand for;
//  - assembly that takes a float's bits as an integer, or reads memory
//    with derivatives and hands the bits back as floats, is an error at
//    the statement (before: the derivative was dropped without a word).
// Reverse mode against analytic values, forward mode against reverse.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// RUN: not %clangxx_enzyme -fenzyme -O2 --cuda-device-only -S -emit-llvm -DBITS_INTO_ASSEMBLY %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=INTO
// RUN: not %clangxx_enzyme -fenzyme -O2 --cuda-device-only -S -emit-llvm -DBITS_FROM_ASSEMBLY %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=FROM
// CHECK-NOT: FAIL
// CHECK: all checks passed
// INTO: ptx-assembly.cu:[[#@LINE+31]]:{{[0-9]+}}: error: cannot differentiate 'intoAssembly(float const*, float*)': cannot differentiate inline assembly that takes the bits of a float with a derivative as an integer (operand 1): its derivative would be lost
// FROM: ptx-assembly.cu:[[#@LINE+43]]:{{[0-9]+}}: error: cannot differentiate 'fromAssembly(double const*, double*)': cannot differentiate inline assembly whose result or memory output carries a derivative
#include "../Inputs/check.h"

extern __device__ void __enzyme_autodiff(void *, ...);
extern __device__ void __enzyme_fwddiff(void *, ...);
__device__ int enzyme_dup, enzyme_const;

constexpr int N = 64;

// Out[i] = a * b + a^2 + y^3, (a, b) = X[2i], X[2i+1] loaded as one
// 16-byte integer pair, y = X[2i] with its halves taken apart and joined.
__device__ void model(const double *X, double *Out) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long A, B;
  asm("ld.global.nc.v2.u64 {%0, %1}, [%2];"
      : "=l"(A), "=l"(B)
      : "l"(X + 2 * I));
  double Da = __longlong_as_double(A), Db = __longlong_as_double(B);
  double Y = __hiloint2double(__double2hiint(X[2 * I]), __double2loint(X[2 * I]));
  Out[I] = Da * Db + Da * Da + Y * Y * Y;
}

#ifdef BITS_INTO_ASSEMBLY
__device__ void intoAssembly(const float *X, float *Out) {
  unsigned Bits;
  asm("brev.b32 %0, %1;" : "=r"(Bits) : "r"(__float_as_uint(X[threadIdx.x])));
  Out[threadIdx.x] = __uint_as_float(Bits) * 2;
}
__global__ void intoGradient(const float *X, float *DX, float *Out,
                             float *DOut) {
  __enzyme_autodiff((void *)intoAssembly, enzyme_dup, X, DX, enzyme_dup, Out,
                    DOut);
}
#endif

#ifdef BITS_FROM_ASSEMBLY
__device__ void fromAssembly(const double *X, double *Out) {
  unsigned long long Bits;
  asm("ld.relaxed.gpu.u64 %0, [%1];" : "=l"(Bits) : "l"(X + threadIdx.x));
  Out[threadIdx.x] = __longlong_as_double(Bits) * 2;
}
__global__ void fromGradient(const double *X, double *DX, double *Out,
                             double *DOut) {
  __enzyme_autodiff((void *)fromAssembly, enzyme_dup, X, DX, enzyme_dup, Out,
                    DOut);
}
#endif

__global__ void gradient(const double *X, double *DX, double *Out,
                         double *DOut) {
  __enzyme_autodiff((void *)model, enzyme_dup, X, DX, enzyme_dup, Out, DOut);
}

__global__ void tangent(const double *X, const double *TX, double *Out,
                        double *TOut) {
  __enzyme_fwddiff((void *)model, enzyme_dup, X, TX, enzyme_dup, Out, TOut);
}

int main() {
  double *X, *DX, *Out, *DOut, *TX, *TOut;
  CUDA_CHECK(cudaMallocManaged(&X, 2 * N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DX, 2 * N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&TX, 2 * N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Out, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DOut, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&TOut, N * sizeof(double)));
  for (int I = 0; I < 2 * N; ++I) {
    X[I] = std::sin(0.3 * I) + 1.5;
    DX[I] = 0;
    TX[I] = std::cos(0.7 * I);
  }
  for (int I = 0; I < N; ++I)
    DOut[I] = 1 + I % 3;
  gradient<<<N / 32, 32>>>(X, DX, Out, DOut);
  CUDA_CHECK(cudaDeviceSynchronize());
  bool Ok = true;
  double Reverse = 0;
  for (int I = 0; I < N; ++I) {
    double A = X[2 * I], B = X[2 * I + 1], W = 1 + I % 3;
    double GA = W * (B + 2 * A + 3 * A * A), GB = W * A;
    Ok &= std::fabs(DX[2 * I] - GA) <= 1e-12 * (1 + std::fabs(GA));
    Ok &= std::fabs(DX[2 * I + 1] - GB) <= 1e-12 * (1 + std::fabs(GB));
    Reverse += DX[2 * I] * TX[2 * I] + DX[2 * I + 1] * TX[2 * I + 1];
  }
  check("reverse mode", Ok);
  tangent<<<N / 32, 32>>>(X, TX, Out, TOut);
  CUDA_CHECK(cudaDeviceSynchronize());
  double Dot = 0;
  for (int I = 0; I < N; ++I)
    Dot += (1 + I % 3) * TOut[I];
  checkClose("forward mode agrees with reverse mode", Dot, Reverse, 1e-12);
  return finish();
}
