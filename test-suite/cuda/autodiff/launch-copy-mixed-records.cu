// cudaMemcpy of structs that hold device pointers beside floating-point
// and integer scalars: a kernel's parameters copied to device memory once
// and read back, and an array of terms, each a pointer to its
// coefficients and a weight, of a length known at run time. The reverse
// pass must move the adjoints of the doubles back and leave the pointers
// and integers alone; the augmented pass must copy the pointers' shadows.
// Before, the first copy was taken for a copy of doubles at -O0 (a member
// of type double beside the pointers) and untyped at -O2: either way the
// pointers' shadows were not copied, and the reverse kernel dereferenced a
// null shadow (a segmentation fault). Now the engine gives the run-time
// the layout of each record (CopyRecords.h). Third, the parameters go to
// a `__device__` variable with a declared shadow (cudaMemcpyToSymbol,
// whose length at -O0 is a parameter of CUDA's template: the record is
// the size of the variable). Analytic gradients at -O0, -O1 and -O2;
// forward mode against them.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O1 %s -o %t.O1 && %t.O1 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const, enzyme_out;

constexpr int N = 100;

struct Params {
  double *X;
  double *Y;
  double Scale;
  int Count;
};

__global__ void apply(const Params *P) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < P->Count)
    P->Y[I] = P->Scale * sin(P->X[I]);
}

// sum_i (Scale sin x_i)^2 + Scale, the struct copied to the device and
// back (the second copy moves the pointers and Scale device to host).
double loss(const double *XHost, double Scale, int Count) {
  Params H;
  CUDA_CHECK(cudaMalloc(&H.X, Count * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&H.Y, Count * sizeof(double)));
  CUDA_CHECK(cudaMemcpy(H.X, XHost, Count * sizeof(double),
                        cudaMemcpyHostToDevice));
  H.Scale = Scale;
  H.Count = Count;
  Params *D;
  CUDA_CHECK(cudaMalloc(&D, sizeof(Params)));
  CUDA_CHECK(cudaMemcpy(D, &H, sizeof(Params), cudaMemcpyHostToDevice));
  apply<<<(Count + 63) / 64, 64>>>(D);
  Params Back;
  CUDA_CHECK(cudaMemcpy(&Back, D, sizeof(Params), cudaMemcpyDeviceToHost));
  double *YHost = new double[Count];
  CUDA_CHECK(cudaMemcpy(YHost, Back.Y, Back.Count * sizeof(double),
                        cudaMemcpyDeviceToHost));
  double S = Back.Scale;
  for (int I = 0; I < Count; ++I)
    S += YHost[I] * YHost[I];
  delete[] YHost;
  cudaFree(D);
  cudaFree(H.X);
  cudaFree(H.Y);
  return S;
}

__device__ Params GlobalShadow;
__attribute__((enzyme_shadow(GlobalShadow))) __device__ Params Global;

__global__ void applyGlobal() {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < Global.Count)
    Global.Y[I] = Global.Scale * Global.X[I] * Global.X[I];
}

// sum_i Scale x_i^2, the parameters in a __device__ variable.
double lossGlobal(const double *XHost, double Scale, int Count) {
  Params H;
  CUDA_CHECK(cudaMalloc(&H.X, Count * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&H.Y, Count * sizeof(double)));
  CUDA_CHECK(cudaMemcpy(H.X, XHost, Count * sizeof(double),
                        cudaMemcpyHostToDevice));
  H.Scale = Scale;
  H.Count = Count;
  CUDA_CHECK(cudaMemcpyToSymbol(Global, &H, sizeof(Params)));
  applyGlobal<<<(Count + 63) / 64, 64>>>();
  double *YHost = new double[Count];
  CUDA_CHECK(cudaMemcpy(YHost, H.Y, Count * sizeof(double),
                        cudaMemcpyDeviceToHost));
  double S = 0;
  for (int I = 0; I < Count; ++I)
    S += YHost[I];
  delete[] YHost;
  cudaFree(H.X);
  cudaFree(H.Y);
  return S;
}

struct Term {
  const double *Coef;
  double Weight;
};

__global__ void evaluate(const Term *Terms, int NumTerms, double *Out) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < NumTerms)
    Out[T] = Terms[T].Weight * Terms[T].Coef[0] * Terms[T].Coef[1];
}

// sum_t w_t c_{2t} c_{2t+1}: the terms' array is copied with a length
// known at run time; each record is a pointer and a double.
double terms(const double *CoefHost, const double *Weights, int NumTerms) {
  double *Coef, *Out;
  CUDA_CHECK(cudaMalloc(&Coef, 2 * NumTerms * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&Out, NumTerms * sizeof(double)));
  CUDA_CHECK(cudaMemcpy(Coef, CoefHost, 2 * NumTerms * sizeof(double),
                        cudaMemcpyHostToDevice));
  Term *Host = new Term[NumTerms];
  for (int T = 0; T < NumTerms; ++T) {
    Host[T].Coef = Coef + 2 * T;
    Host[T].Weight = Weights[T];
  }
  Term *Device;
  CUDA_CHECK(cudaMalloc(&Device, NumTerms * sizeof(Term)));
  CUDA_CHECK(cudaMemcpy(Device, Host, NumTerms * sizeof(Term),
                        cudaMemcpyHostToDevice));
  evaluate<<<(NumTerms + 31) / 32, 32>>>(Device, NumTerms, Out);
  double *OutHost = new double[NumTerms];
  CUDA_CHECK(cudaMemcpy(OutHost, Out, NumTerms * sizeof(double),
                        cudaMemcpyDeviceToHost));
  double S = 0;
  for (int T = 0; T < NumTerms; ++T)
    S += OutHost[T];
  delete[] OutHost;
  delete[] Host;
  cudaFree(Device);
  cudaFree(Out);
  cudaFree(Coef);
  return S;
}

int main() {
  static double X[N], G[N], DX[N];
  for (int I = 0; I < N; ++I)
    X[I] = 0.03 * I - 1, DX[I] = std::cos(0.2 * I);
  double Scale = 1.5;
  double GScale = __enzyme_autodiff((void *)loss, enzyme_dup, X, G, enzyme_out,
                                    Scale, enzyme_const, N);
  bool Ok = true;
  double WantScale = 1, Dot = 0;
  for (int I = 0; I < N; ++I) {
    double S = std::sin(X[I]), Want = 2 * Scale * S * Scale * std::cos(X[I]);
    Ok &= std::fabs(G[I] - Want) <= 1e-12 * (1 + std::fabs(Want));
    WantScale += 2 * Scale * S * S;
    Dot += G[I] * DX[I];
  }
  check("parameters: gradient of the points", Ok);
  checkClose("parameters: gradient of the scale", GScale, WantScale, 1e-12);
  double Tangent = __enzyme_fwddiff((void *)loss, enzyme_dup, X, DX,
                                    enzyme_dup, Scale, 0.5, enzyme_const, N);
  checkClose("parameters: tangent", Tangent, Dot + 0.5 * GScale, 1e-12);

  for (int I = 0; I < N; ++I)
    G[I] = 0;
  GScale = __enzyme_autodiff((void *)lossGlobal, enzyme_dup, X, G, enzyme_out,
                             Scale, enzyme_const, N);
  Ok = true;
  WantScale = 0, Dot = 0;
  for (int I = 0; I < N; ++I) {
    Ok &= std::fabs(G[I] - 2 * Scale * X[I]) <= 1e-12 * (1 + std::fabs(X[I]));
    WantScale += X[I] * X[I];
    Dot += G[I] * DX[I];
  }
  check("__device__ parameters: gradient of the points", Ok);
  checkClose("__device__ parameters: gradient of the scale", GScale, WantScale,
             1e-12);
  Tangent = __enzyme_fwddiff((void *)lossGlobal, enzyme_dup, X, DX, enzyme_dup,
                             Scale, 0.5, enzyme_const, N);
  checkClose("__device__ parameters: tangent", Tangent, Dot + 0.5 * GScale,
             1e-12);

  constexpr int T = 37;
  static double C[2 * T], GC[2 * T], W[T], GW[T], DC[2 * T], DW[T];
  for (int I = 0; I < 2 * T; ++I)
    C[I] = 0.5 + 0.01 * I, DC[I] = std::sin(0.3 * I);
  for (int I = 0; I < T; ++I)
    W[I] = 1 - 0.02 * I, DW[I] = std::cos(0.1 * I);
  __enzyme_autodiff((void *)terms, enzyme_dup, C, GC, enzyme_dup, W, GW,
                    enzyme_const, T);
  Ok = true;
  double Want = 0;
  for (int I = 0; I < T; ++I) {
    Ok &= std::fabs(GW[I] - C[2 * I] * C[2 * I + 1]) <= 1e-12;
    Ok &= std::fabs(GC[2 * I] - W[I] * C[2 * I + 1]) <= 1e-12;
    Ok &= std::fabs(GC[2 * I + 1] - W[I] * C[2 * I]) <= 1e-12;
    Want += GW[I] * DW[I] + GC[2 * I] * DC[2 * I] +
            GC[2 * I + 1] * DC[2 * I + 1];
  }
  check("terms: gradient", Ok);
  checkClose("terms: tangent",
             __enzyme_fwddiff((void *)terms, enzyme_dup, C, DC, enzyme_dup, W,
                              DW, enzyme_const, T),
             Want, 1e-12);
  return finish();
}
