// Differentiated host code that stages data in pinned host memory
// (cudaMallocHost, cudaHostAlloc, cudaFreeHost), allocates device memory
// in stream order (cudaMallocAsync, cudaFreeAsync; the C++ template forms
// too), and hands a kernel a __device__ array by its device address
// (cudaGetSymbolAddress, whose derivative gives the address of the
// variable's declared shadow), with nothing but __enzyme_autodiff. Checked
// against analytic gradients at -O0 and -O2, and forward mode against them.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const;

constexpr int N = 20;

__device__ double WeightsShadow[N];
__attribute__((enzyme_shadow(WeightsShadow))) __device__ double Weights[N];

__global__ void weigh(double *Out, const double *In, const double *W, int N) {
  int I = threadIdx.x;
  if (I < N)
    Out[I] = W[I] * In[I] * In[I];
}

// loss = sum_i w_i (2 x_i)^2
double loss(const double *X, const double *W) {
  constexpr size_t Bytes = N * sizeof(double);
  cudaStream_t S;
  cudaStreamCreate(&S);
  double *Pinned;
  cudaMallocHost((void **)&Pinned, Bytes);
  for (int I = 0; I < N; ++I)
    Pinned[I] = 2 * X[I];
  double *In, *Out;
  cudaMallocAsync((void **)&In, Bytes, S);
  cudaMallocAsync(&Out, Bytes, S);
  cudaMemcpyAsync(In, Pinned, Bytes, cudaMemcpyHostToDevice, S);
  cudaMemcpyToSymbolAsync(Weights, W, Bytes, 0, cudaMemcpyHostToDevice, S);
  double *WeightsOnDevice;
  cudaGetSymbolAddress((void **)&WeightsOnDevice, Weights);
  weigh<<<1, 32, 0, S>>>(Out, In, WeightsOnDevice, N);
  double *Back;
  cudaHostAlloc((void **)&Back, Bytes, cudaHostAllocDefault);
  cudaMemcpyAsync(Back, Out, Bytes, cudaMemcpyDeviceToHost, S);
  cudaStreamSynchronize(S);
  cudaFreeAsync(In, S);
  cudaFreeAsync(Out, S);
  double Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += Back[I];
  cudaFreeHost(Pinned);
  cudaFreeHost(Back);
  cudaStreamDestroy(S);
  return Sum;
}

int main() {
  double X[N], DX[N] = {}, W[N], DW[N] = {};
  for (int I = 0; I < N; ++I) {
    X[I] = 0.1 * I - 0.8;
    W[I] = 1 + 0.05 * I;
  }
  __enzyme_autodiff((void *)loss, enzyme_dup, X, DX, enzyme_dup, W, DW);
  bool XOk = true, WOk = true;
  for (int I = 0; I < N; ++I) {
    XOk &= std::fabs(DX[I] - 8 * W[I] * X[I]) <= 1e-12;
    WOk &= std::fabs(DW[I] - 4 * X[I] * X[I]) <= 1e-12;
  }
  check("d/dx through pinned and stream-ordered memory", XOk);
  check("d/dw through the __device__ array's address", WOk);

  double TX[N], TW[N], Projection = 0;
  for (int I = 0; I < N; ++I) {
    TX[I] = std::cos(0.3 * I);
    TW[I] = std::sin(0.7 * I);
    Projection += DX[I] * TX[I] + DW[I] * TW[I];
  }
  double Tangent =
      __enzyme_fwddiff((void *)loss, enzyme_dup, X, TX, enzyme_dup, W, TW);
  checkClose("forward mode through pinned and stream-ordered memory", Tangent,
             Projection, 1e-12);
  return finish();
}
