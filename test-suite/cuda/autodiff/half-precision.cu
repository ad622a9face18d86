// Mixed precision as training code writes it: float master weights on the
// device, cast to __half and __half2 by a kernel, a model that computes in
// half precision (cuda_fp16.h's arithmetic, conversions, comparisons and
// pairs) and in float, and a double loss. cuda_fp16.h writes these
// functions as inline PTX on 16-bit integers; before, the derivative
// kernels were an error of the device compilation ("inline assembly whose
// result ... carries a derivative"), and once the PTX was read, unoptimised
// code returned each half from a call as a struct of an integer, whose
// derivative was silently lost (a zero gradient). Now the statements are
// read as the IR they compute (Core/PtxStatements.h: `cvt`, f16 and f16x2
// arithmetic, `setp`, pairs as vectors, `atom.add.noftz.f16`), the helpers
// are inlined first at every level (Modes/HalfPrecisionHelpers.h), a
// shuffle of a half (of a pair of halves' bits) is two shuffles of floats
// (Modes/WarpShuffles.h), and hcos's range reduction rounds by adding and
// subtracting 0x1.8p23, whose derivative is 0 (Modes/MagicRounding.h;
// without it, hcos's derivative was silently about 0). Reverse mode against
// central differences of the model in double (half rounding: a loose
// tolerance), forward mode against reverse mode, -O0 and -O2.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// RUN: %clangxx_enzyme -fenzyme -O2 --cuda-device-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// CHECK-NOT: FAIL
// CHECK: all checks passed
// The reverse kernels read no assembly: the halves are floats.
// IR-LABEL: define {{.*}}void @_enzyme_kernel_reverse__Z5layerPK6__halfS1_Pfi(
// IR-NOT:     asm
// IR:       ret void
#include "../Inputs/check.h"

#include <cuda_fp16.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const, enzyme_out;

__global__ void toHalf(const float *W, __half *H, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    H[I] = __float2half(W[I]);
}

// y_i = |fma(a b, a b, -(a b + a - x))| + max(a, x) (a + x), a = w_i.
__global__ void layer(const __half *H, const __half *X, float *Y, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    __half A = H[I], B = X[I];
    __half P = __hmul(A, B);
    __half D = __hsub(__hadd(P, A), B);
    __half Q = __habs(__hfma(P, P, __hneg(D)));
    __half Larger = __hgt(A, B) ? A : B;
    Y[I] = __half2float(Q) + (float)(Larger * (A + B));
  }
}

// Pairs of weights: y_j += (p.x^2 + p.x) p.x + p.x^2 - ((p.y^2 + p.y) p.y +
// p.y^2) + p.x + 2 p.y.
__global__ void pairs(const __half2 *H, float *Y, int Pairs) {
  int J = blockIdx.x * blockDim.x + threadIdx.x;
  if (J < Pairs) {
    __half2 P = H[J];
    __half2 S = __hmul2(P, P);
    __half2 U = __hfma2(P, __hadd2(S, P), S);
    float2 F = __half22float2(U);
    Y[J] += F.x - F.y + __low2float(P) + 2 * __high2float(P);
  }
}

// Pairs built from floats and from halves: y_j += 3 (w_2j w_2j+1) + a.
__global__ void build(const float *W, const __half *H, float *Y, int Pairs) {
  int J = blockIdx.x * blockDim.x + threadIdx.x;
  if (J < Pairs) {
    __half2 F = __floats2half2_rn(W[2 * J], W[2 * J + 1]);
    __half2 G = __halves2half2(H[2 * J], __float2half(3.0f));
    float2 V = __half22float2(__hmul2(F, G));
    Y[J] += V.x * V.y / 3 + __half2float(H[2 * J]);
  }
}

// cuda_fp16.h's functions, whose PTX approximates in float and fixes up
// special values: y_i += e^a + ln a + sqrt a + 1/sqrt a + cos a + 1/a +
// sin(a) / 1.5, and the pair's exponential and sine: y_j += e^(w_2j) +
// sin(w_2j^2). hsin and h2sin put the sign back with bit operations (an
// error before), and __hdiv at -O0 chose its fix-up as a phi of 16-bit
// integers behind an unused struct (an error before).
__global__ void functions(const __half *H, float *Y, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    __half A = H[I];
    __half S = __hadd(__hadd(hexp(A), hlog(A)), __hadd(hsqrt(A), hrsqrt(A)));
    __half Sine = __hdiv(hsin(A), __float2half(1.5f));
    atomicAdd(&Y[I], __half2float(__hadd(S, __hadd(hcos(A), hrcp(A)))) +
                         __half2float(Sine));
    if (I % 2 == 0)
      atomicAdd(&Y[I / 2],
                __low2float(h2exp(__halves2half2(A, A))) +
                    __high2float(h2sin(__halves2half2(A, __hmul(A, A)))));
  }
}

// Warp sums of squares in half precision (shuffles of a __half), added
// atomically into half slots: slot k gets the sum over warp k of w_i^2.
__global__ void slots(const __half *H, __half *Slots, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  __half V = I < N ? __hmul(H[I], H[I]) : __float2half(0.0f);
  for (int Offset = 16; Offset > 0; Offset /= 2)
    V = __hadd(V, __shfl_down_sync(0xffffffff, V, Offset));
  if (threadIdx.x % 32 == 0)
    atomicAdd(&Slots[I / 32], V);
}

__global__ void weighSlots(const __half *Slots, double *Out, int Count) {
  int K = threadIdx.x;
  if (K < Count)
    atomicAdd(Out, (K + 1) * (double)__half2float(Slots[K]));
}

__global__ void total(const float *Y, double *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    atomicAdd(Out, (double)Y[I]);
}

double loss(const float *W, const float *X, int N) {
  float *DW, *DXF, *DY;
  __half *DH, *DX, *DS;
  double *DO;
  int Warps = (N + 31) / 32;
  CUDA_CHECK(cudaMalloc(&DW, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&DXF, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&DY, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&DH, N * sizeof(__half)));
  CUDA_CHECK(cudaMalloc(&DX, N * sizeof(__half)));
  CUDA_CHECK(cudaMalloc(&DS, Warps * sizeof(__half)));
  CUDA_CHECK(cudaMalloc(&DO, sizeof(double)));
  CUDA_CHECK(cudaMemset(DS, 0, Warps * sizeof(__half)));
  CUDA_CHECK(cudaMemcpy(DW, W, N * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(DXF, X, N * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(DO, 0, sizeof(double)));
  int Blocks = (N + 63) / 64;
  toHalf<<<Blocks, 64>>>(DW, DH, N);
  toHalf<<<Blocks, 64>>>(DXF, DX, N);
  layer<<<Blocks, 64>>>(DH, DX, DY, N);
  pairs<<<Blocks, 64>>>((const __half2 *)DH, DY, N / 2);
  functions<<<Blocks, 64>>>(DH, DY, N);
  build<<<Blocks, 64>>>(DW, DH, DY, N / 2);
  total<<<Blocks, 64>>>(DY, DO, N);
  slots<<<Blocks, 64>>>(DH, DS, N);
  weighSlots<<<1, 32>>>(DS, DO, Warps);
  double R;
  CUDA_CHECK(cudaMemcpy(&R, DO, sizeof R, cudaMemcpyDeviceToHost));
  cudaFree(DW), cudaFree(DXF), cudaFree(DY), cudaFree(DH), cudaFree(DX);
  cudaFree(DS), cudaFree(DO);
  return R;
}

// The model in double, without rounding.
static double lossHost(const double *W, const float *X, int N) {
  double L = 0;
  for (int I = 0; I < N; ++I) {
    double A = W[I], B = X[I], P = A * B, D = P + A - B;
    L += std::fabs(P * P - D) + (A > B ? A : B) * (A + B);
    L += (I / 32 + 1) * A * A;
    L += std::exp(A) + std::log(A) + std::sqrt(A) + 1 / std::sqrt(A) +
         std::cos(A) + 1 / A + std::sin(A) / 1.5;
    if (I % 2 == 0)
      L += std::exp(A) + std::sin(A * A);
  }
  for (int J = 0; J < N / 2; ++J) {
    double X0 = W[2 * J], X1 = W[2 * J + 1];
    L += (X0 * X0 + X0) * X0 + X0 * X0 - ((X1 * X1 + X1) * X1 + X1 * X1) +
         X0 + 2 * X1;
    L += X0 * X0 * X1 + X0;
  }
  return L;
}

int main() {
  constexpr int N = 96;
  static float W[N], X[N], G[N], T[N];
  for (int I = 0; I < N; ++I) {
    // Half-precision values (exact in half), away from the kinks of abs
    // and max.
    W[I] = (float)__half2float(__float2half(0.25f + 0.015625f * (I % 40)));
    X[I] = (float)__half2float(__float2half(1.0f - 0.0078125f * (I % 23)));
    if (std::fabs(W[I] - X[I]) < 0.02f)
      X[I] += 0.0625f;
    T[I] = std::sin(0.7 * I);
  }
  __enzyme_autodiff((void *)loss, enzyme_dup, W, G, enzyme_const, X,
                    enzyme_const, N);
  static double WD[N];
  for (int I = 0; I < N; ++I)
    WD[I] = W[I];
  bool Ok = true;
  double Dot = 0, Scale = 0;
  for (int I = 0; I < N; ++I) {
    double H = 1e-4, Save = WD[I];
    WD[I] = Save + H;
    double Up = lossHost(WD, X, N);
    WD[I] = Save - H;
    double Down = lossHost(WD, X, N);
    WD[I] = Save;
    double Want = (Up - Down) / (2 * H);
    if (std::fabs(G[I] - Want) > 2e-2 * (1 + std::fabs(Want))) {
      std::printf("FAIL gradient %d: got %g, expected %g\n", I, G[I], Want);
      Ok = false;
    }
    Dot += G[I] * T[I];
    Scale += std::fabs(G[I] * T[I]);
  }
  check("gradient through half-precision kernels", Ok);
  // Both round in half precision, each in its own order: against the size
  // of the terms.
  double Tangent = __enzyme_fwddiff((void *)loss, enzyme_dup, W, T,
                                    enzyme_const, X, enzyme_const, N);
  if (std::fabs(Tangent - Dot) > 5e-4 * Scale)
    std::printf("FAIL tangent: got %g, expected %g\n", Tangent, Dot);
  check("tangent against the gradient", std::fabs(Tangent - Dot) <= 5e-4 * Scale);
  return finish();
}
