// Device helpers that return references to memory without derivatives
// (enzyme_const parameters), as a struct of references that the caller
// keeps in a local it passes on by reference: unoptimised code gives that
// local a shadow, and would give it the shadows of the references too.
// Device code has no run-time to make a scratch shadow for them, and this
// was an error ("the caller stores or reads derivatives through the pointer
// 'pick' returns"); the caller now asks the helper, which returns only
// pointers without shadows, and keeps them so (Thrust's select_system at
// -O0 returns its policies this way). Reverse and forward mode against the
// analytic derivatives, -O0 and -O2; storing a derivative through such a
// reference is an error, not a lost derivative.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate -O0 -DSTORE_THROUGH %s -o %t.err 2>&1 | FileCheck %s --check-prefix=STORE
// CHECK-NOT: FAIL
// CHECK: all checks passed
// STORE: returned-references.cu:[[#]]:{{[0-9]+}}: error: cannot differentiate
// STORE-SAME: derivative
// A variable that holds either such a reference or one with derivatives
// cannot take the null shadow device code would give the first (no
// run-time makes a zeroed stand-in there, as on the host): an error, where
// before the reverse pass dereferenced the null shadow (a crash).
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate -O0 -DMIXED %s -o %t.mixed 2>&1 | FileCheck %s --check-prefix=MIXED
// MIXED: error: cannot differentiate {{.*}}storing a pointer to memory without derivatives {{.*}} into memory that also holds pointers with derivatives
#include "../Inputs/check.h"

extern __device__ void __enzyme_autodiff(void *, ...);
extern __device__ double __enzyme_fwddiff(void *, ...);
__device__ int enzyme_dup, enzyme_const;

struct Params {
  double Scale, Shift;
};
struct Terms {
  const double &Scale;
  const double &Shift;
};

__device__ Terms terms(const Params &P) { return Terms{P.Scale, P.Shift}; }
__device__ double apply(const Terms &T, double X) {
  return T.Scale * X * X + T.Shift * sin(X);
}

// Y[i] = a x_i^2 + b sin(x_i).
__device__ void model(const double *X, double *Y, const Params *P) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  Terms T = terms(*P);
  Y[I] = apply(T, X[I]);
}

#ifdef STORE_THROUGH
__device__ double &slot(Params &P) { return P.Scale; }
__device__ void keep(double &Into, double V) { Into = V; }
// Stores x^2 into the enzyme_const parameters, then reads it back: its
// derivative would be lost.
__device__ void stores(const double *X, double *Y, Params *P) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  double &S = slot(*P);
  keep(S, X[I] * X[I]);
  Y[I] = S;
}
__global__ void storeGradient(const double *X, double *DX, double *Y,
                              double *DY, Params *P) {
  __enzyme_autodiff((void *)stores, enzyme_dup, X, DX, enzyme_dup, Y, DY,
                    enzyme_const, P);
}
#endif

#ifdef MIXED
__device__ const double &pick(const double &C) { return C; }
__device__ void scaleBy(const double *const &R, double *Y, double X) {
  *Y = *R * X;
}
__device__ void mixed(const double *X, double *Y, const Params *P, int Flag) {
  const double *R;
  if (Flag)
    R = &X[threadIdx.x];
  else
    R = &pick(P->Scale);
  scaleBy(R, &Y[threadIdx.x], X[threadIdx.x]);
}
__global__ void mixedGradient(const double *X, double *DX, double *Y,
                              double *DY, const Params *P, int Flag) {
  __enzyme_autodiff((void *)mixed, enzyme_dup, X, DX, enzyme_dup, Y, DY,
                    enzyme_const, P, enzyme_const, Flag);
}
#endif

__global__ void gradient(const double *X, double *DX, double *Y, double *DY,
                         const Params *P) {
  __enzyme_autodiff((void *)model, enzyme_dup, X, DX, enzyme_dup, Y, DY,
                    enzyme_const, P);
}

__device__ double sumModel(const double *X, const Params *P, int N) {
  double Y[64];
  for (int I = 0; I < N; ++I) {
    Terms T = terms(*P);
    Y[I] = apply(T, X[I]);
  }
  double S = 0;
  for (int I = 0; I < N; ++I)
    S += Y[I];
  return S;
}

__global__ void tangent(const double *X, const double *TX, const Params *P,
                        int N, double *Out) {
  *Out = __enzyme_fwddiff((void *)sumModel, enzyme_dup, X, TX, enzyme_const,
                          P, enzyme_const, N);
}

int main() {
  constexpr int N = 64;
  double *X, *DX, *Y, *DY, *TX, *Out;
  Params *P;
  CUDA_CHECK(cudaMallocManaged(&X, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DX, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Y, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DY, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&TX, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Out, sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&P, sizeof(Params)));
  *P = {1.5, 0.25};
  for (int I = 0; I < N; ++I) {
    X[I] = 0.1 * I - 2;
    DX[I] = 0;
    DY[I] = 1;
    TX[I] = cos(0.3 * I);
  }
  gradient<<<2, 32>>>(X, DX, Y, DY, P);
  tangent<<<1, 1>>>(X, TX, P, N, Out);
  CUDA_CHECK(cudaDeviceSynchronize());
  double Dot = 0;
  bool Ok = true;
  for (int I = 0; I < N; ++I) {
    double Expected = 2 * P->Scale * X[I] + P->Shift * cos(X[I]);
    Ok &= std::fabs(DX[I] - Expected) <= 1e-12 * (1 + std::fabs(Expected));
    Dot += Expected * TX[I];
  }
  check("gradient", Ok);
  checkClose("tangent", *Out, Dot, 1e-12);
  return finish();
}
