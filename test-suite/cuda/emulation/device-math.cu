// CUDA math in device code (what sin, exp, pow, ... become there: libdevice
// calls) gives the host libm's results under emulation, and results within
// CUDA's documented error bounds on a GPU.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"

constexpr int N = 64;
enum { Sin, Cos, Exp, Log, Pow, Sqrt, Tanh, Erf, Lgamma, Atan2, Cbrt, Fma,
       SinF, ExpF, PowF, SqrtF, FastExpF, Functions };

__global__ void evaluate(const double *X, double *Out) {
  int I = threadIdx.x;
  double D = X[I];
  float F = (float)D;
  double *R = Out + I * Functions;
  R[Sin] = sin(D);
  R[Cos] = cos(D);
  R[Exp] = exp(D);
  R[Log] = log(D);
  R[Pow] = pow(D, 2.5);
  R[Sqrt] = sqrt(D);
  R[Tanh] = tanh(D);
  R[Erf] = erf(D);
  R[Lgamma] = lgamma(D);
  R[Atan2] = atan2(D, 1.5);
  R[Cbrt] = cbrt(D);
  R[Fma] = fma(D, D, -1.0);
  R[SinF] = sinf(F);
  R[ExpF] = expf(F);
  R[PowF] = powf(F, 1.5f);
  R[SqrtF] = sqrtf(F);
  R[FastExpF] = __expf(F);
}

int main() {
  double *X, *Out;
  CUDA_CHECK(cudaMallocManaged(&X, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Out, N * Functions * sizeof(double)));
  for (int I = 0; I < N; ++I)
    X[I] = 0.05 + 0.37 * I;
  evaluate<<<1, N>>>(X, Out);
  CUDA_CHECK(cudaDeviceSynchronize());
  const char *Names[Functions] = {"sin", "cos", "exp", "log", "pow", "sqrt",
                                  "tanh", "erf", "lgamma", "atan2", "cbrt",
                                  "fma", "sinf", "expf", "powf", "sqrtf",
                                  "__expf"};
  for (int Fn = 0; Fn < Functions; ++Fn) {
    double Worst = 0;
    for (int I = 0; I < N; ++I) {
      double D = X[I];
      float F = (float)D;
      double E;
      switch (Fn) {
      case Sin: E = std::sin(D); break;
      case Cos: E = std::cos(D); break;
      case Exp: E = std::exp(D); break;
      case Log: E = std::log(D); break;
      case Pow: E = std::pow(D, 2.5); break;
      case Sqrt: E = std::sqrt(D); break;
      case Tanh: E = std::tanh(D); break;
      case Erf: E = std::erf(D); break;
      case Lgamma: E = std::lgamma(D); break;
      case Atan2: E = std::atan2(D, 1.5); break;
      case Cbrt: E = std::cbrt(D); break;
      case Fma: E = std::fma(D, D, -1.0); break;
      case SinF: E = std::sin(F); break;
      case ExpF: E = std::exp(F); break;
      case PowF: E = std::pow(F, 1.5f); break;
      case SqrtF: E = std::sqrt(F); break;
      default: E = std::exp(F); break;
      }
      double Error = std::fabs(Out[I * Functions + Fn] - E) / (1 + std::fabs(E));
      Worst = Error > Worst ? Error : Worst;
    }
    // A few ulps in double, a few in float; __expf is a fast approximation.
    double Bound = Fn < SinF ? 1e-14 : (Fn == FastExpF ? 1e-5 : 1e-6);
    char Name[64];
    std::snprintf(Name, sizeof Name, "%s (worst relative error %.1e)",
                  Names[Fn], Worst);
    check(Name, Worst <= Bound);
  }
  return finish();
}
