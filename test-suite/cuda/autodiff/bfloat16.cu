// bfloat16 as training code on Ampere and newer GPUs writes it: float
// weights converted to __nv_bfloat16 by one kernel, a model in bfloat16
// arithmetic (cuda_bf16.h: __hfma, hexp, pairs, __hdiv) in another, both
// launched from the differentiated host function; and device functions of
// bfloat16 differentiated on the device. cuda_bf16.h writes the operations
// as inline PTX on 16-bit integers (`cvt.rn.bf16.f32`, `fma.rn.bf16`), read
// as bfloat IR; before, -O0 kept the conversions' helpers (which take the
// raw bits as an unsigned short) as calls, an error; __hdiv's
// __fmaf_ieee_rn had no rule (an error at every level); and the emulation's
// link lacked __truncsfbf2, which the host's code generator calls for a
// conversion to bfloat16 (compiler-rt's builtins are not installed).
// (Below sm_80: bfloat16-before-sm80.cu.) Central differences, -O0 and
// -O2; forward against reverse.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate --cuda-gpu-arch=sm_90 -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate --cuda-gpu-arch=sm_90 -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme --cuda-gpu-arch=sm_90 -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"

#include <cuda_bf16.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern __device__ float __enzyme_autodiff_device(void *, ...) __asm__("__enzyme_autodiff");
int enzyme_dup, enzyme_const, enzyme_out;

__global__ void toBfloat16(const float *W, __nv_bfloat16 *H, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    H[I] = __float2bfloat16(W[I]);
}

// y_i = (a^2 + 1) e^a + pair terms, a = w_i.
__global__ void model(const __nv_bfloat16 *H, float *Y, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    __nv_bfloat16 A = H[I];
    __nv_bfloat16 P = __hfma(A, A, __float2bfloat16(1.0f));
    // (a, 2a) squared as a pair: a^2 + 4a^2.
    __nv_bfloat162 V = __floats2bfloat162_rn(__bfloat162float(A),
                                             2.0f * __bfloat162float(A));
    float2 S = __bfloat1622float2(__hmul2(V, V));
    Y[I] = __bfloat162float(P) * __bfloat162float(hexp(A)) + S.x + S.y;
  }
}

double loss(const float *W, int N) {
  float *DW, *DY;
  __nv_bfloat16 *DH;
  CUDA_CHECK(cudaMalloc(&DW, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&DY, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&DH, N * sizeof(__nv_bfloat16)));
  CUDA_CHECK(cudaMemcpy(DW, W, N * sizeof(float), cudaMemcpyHostToDevice));
  toBfloat16<<<(N + 31) / 32, 32>>>(DW, DH, N);
  model<<<(N + 31) / 32, 32>>>(DH, DY, N);
  float Y[64];
  CUDA_CHECK(cudaMemcpy(Y, DY, N * sizeof(float), cudaMemcpyDeviceToHost));
  double L = 0;
  for (int I = 0; I < N; ++I)
    L += Y[I];
  cudaFree(DW), cudaFree(DY), cudaFree(DH);
  return L;
}

// (x^2 - x) + (x^2 - x) / 2 through bfloat16, differentiated on the device.
__device__ float deviceFunction(float X) {
  __nv_bfloat16 H = __float2bfloat16(X);
  __nv_bfloat16 P = __hfma(H, H, __hneg(H));
  __nv_bfloat16 Q = __hdiv(P, __float2bfloat16(2.0f));
  return __bfloat162float(P) + __bfloat162float(Q);
}

__global__ void deviceGradients(const float *X, float *D) {
  D[threadIdx.x] = __enzyme_autodiff_device((void *)deviceFunction,
                                            X[threadIdx.x]);
}

static double modelHost(double A) {
  return (A * A + 1) * std::exp(A) + 5 * A * A;
}

int main() {
  constexpr int N = 40;
  float W[N], G[N] = {}, T[N];
  for (int I = 0; I < N; ++I) {
    W[I] = 0.1f + 0.02f * I;
    T[I] = std::cos(0.3 * I);
  }
  __enzyme_autodiff((void *)loss, enzyme_dup, W, G, enzyme_const, N);
  bool Ok = true;
  double Dot = 0, Scale = 0;
  for (int I = 0; I < N; ++I) {
    double A = W[I], H = 1e-4;
    double Want = (modelHost(A + H) - modelHost(A - H)) / (2 * H);
    // bfloat16 keeps 8 bits: a loose tolerance.
    if (std::fabs(G[I] - Want) > 3e-2 * (1 + std::fabs(Want))) {
      std::printf("FAIL gradient %d: got %g, expected %g\n", I, G[I], Want);
      Ok = false;
    }
    Dot += G[I] * T[I];
    Scale += std::fabs(G[I] * T[I]);
  }
  check("gradient through bfloat16 kernels", Ok);
  double Tangent =
      __enzyme_fwddiff((void *)loss, enzyme_dup, W, T, enzyme_const, N);
  checkClose("tangent against the gradient", Tangent / Scale, Dot / Scale,
             1e-3);

  float *X, *D;
  CUDA_CHECK(cudaMallocManaged(&X, 4 * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&D, 4 * sizeof(float)));
  for (int I = 0; I < 4; ++I)
    X[I] = 0.3f + 0.4f * I;
  deviceGradients<<<1, 4>>>(X, D);
  CUDA_CHECK(cudaDeviceSynchronize());
  for (int I = 0; I < 4; ++I)
    checkClose("device gradient", D[I], 1.5 * (2 * X[I] - 1), 3e-2);
  cudaFree(X), cudaFree(D);
  return finish();
}
