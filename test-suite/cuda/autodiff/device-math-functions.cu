// CUDA's device functions that libm does not have, and its arithmetic in a
// rounding mode, in a kernel that differentiated host code launches: each
// function F of the list is evaluated at 64 points, and the gradient of
// sum_i F(x_i) against central differences of the same kernel (doubles:
// tight; floats: loose). Before, each was an error of the device
// compilation ("cannot differentiate a call to '__nv_fast_fdividef': it
// has no definition in this module and no derivative rule"). Forward mode
// against reverse.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const;

constexpr int N = 64;

// F_which(x), for x in (0.1, 0.9) and y = 1 - x / 2 in (0.55, 0.95).
__device__ double apply(int Which, double X) {
  double Y = 1.0 - 0.5 * X;
  float Xf = (float)X, Yf = (float)Y;
  switch (Which) {
  case 0: return __dadd_rn(X * X, Y) + __dadd_rz(X, X) + __dadd_ru(Y, X) + __dadd_rd(X, 3.0);
  case 1: return __dsub_rn(X * X, Y) + __dsub_rz(Y, X * Y);
  case 2: return __dmul_rn(X, Y) + __dmul_ru(X, X * X);
  case 3: return __ddiv_rn(X, Y) + __ddiv_rd(Y, X);
  case 4: return __drcp_rn(X) + __drcp_rz(Y);
  case 5: return __dsqrt_rn(X) + __dsqrt_ru(X * Y);
  case 6: return __fma_rn(X, Y, X * X) + __fma_rz(Y, Y, X);
  case 7: return rsqrt(X) + rcbrt(Y);
  case 8: return rhypot(X, Y);
  case 9: return sinpi(X) + cospi(Y);
  case 10: return normcdf(X) + normcdfinv(Y);
  case 11: return erfinv(X) + erfcinv(Y);
  case 12: return __fadd_rn(Xf * Xf, Yf) + __fsub_rz(Xf, Yf * Yf) + __fmul_rn(Xf, Yf);
  case 13: return __fdiv_rn(Xf, Yf) + __fdividef(Yf, Xf) + __frcp_rn(Xf);
  case 14: return __fsqrt_rn(Xf) + __fmaf_rn(Xf, Yf, Xf) + rsqrtf(Xf) + rcbrtf(Yf);
  case 15: return __saturatef(Xf + 0.05f) + __saturatef(Xf + 1.0f) + __saturatef(Xf - 1.0f) + sinpif(Xf) + cospif(Yf);
  case 16: return normcdff(Xf) + normcdfinvf(Yf) + erfinvf(Xf) + erfcinvf(Yf) + rhypotf(Xf, Yf);
  case 17: return __expf(Xf) + __logf(Yf) + __sinf(Xf) * __cosf(Yf) + __powf(Yf, Xf) + __tanf(Xf);
  }
  return 0;
}
constexpr int Functions = 18;

__global__ void evaluate(const double *X, double *Y, int Which) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Y[I] = apply(Which, X[I]);
}

double total(const double *XHost, int Which) {
  double *X, *Y;
  CUDA_CHECK(cudaMalloc(&X, N * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&Y, N * sizeof(double)));
  CUDA_CHECK(cudaMemcpy(X, XHost, N * sizeof(double), cudaMemcpyHostToDevice));
  evaluate<<<2, N / 2>>>(X, Y, Which);
  double YHost[N];
  CUDA_CHECK(cudaMemcpy(YHost, Y, sizeof YHost, cudaMemcpyDeviceToHost));
  cudaFree(X);
  cudaFree(Y);
  double S = 0;
  for (int I = 0; I < N; ++I)
    S += YHost[I];
  return S;
}

int main() {
  static double X[N], T[N];
  for (int I = 0; I < N; ++I)
    X[I] = 0.1 + 0.8 * I / N, T[I] = std::cos(0.3 * I);
  for (int Which = 0; Which < Functions; ++Which) {
    // The float functions are exact to a few ulps of a float.
    bool Float = Which >= 12;
    double Step = Float ? 1e-2 : 1e-5, Tolerance = Float ? 2e-2 : 1e-7;
    static double G[N];
    for (int I = 0; I < N; ++I)
      G[I] = 0;
    __enzyme_autodiff((void *)total, enzyme_dup, X, G, enzyme_const, Which);
    bool Ok = true;
    double Dot = 0;
    for (int I = 0; I < N; ++I) {
      double Saved = X[I];
      X[I] = Saved + Step;
      double Up = total(X, Which);
      X[I] = Saved - Step;
      double Down = total(X, Which);
      X[I] = Saved;
      double Fd = (Up - Down) / (2 * Step);
      if (!(std::fabs(G[I] - Fd) <= Tolerance * (1 + std::fabs(Fd)))) {
        std::printf("function %d: G[%d] = %.10g, central difference %.10g\n",
                    Which, I, G[I], Fd);
        Ok = false;
      }
      Dot += G[I] * T[I];
    }
    char Name[64];
    std::snprintf(Name, sizeof Name, "function %d gradient", Which);
    check(Name, Ok);
    std::snprintf(Name, sizeof Name, "function %d tangent", Which);
    checkClose(Name,
               __enzyme_fwddiff((void *)total, enzyme_dup, X, T, enzyme_const,
                                Which),
               Dot, Float ? 1e-6 : 1e-9);
  }
  return finish();
}
