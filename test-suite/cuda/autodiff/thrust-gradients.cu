// Thrust algorithms in differentiated host code: device vectors built from
// and copied back to host arrays, transform with a unary and a binary
// functor, for_each with a functor that updates its element, fill, reduce
// and transform_reduce, over 5000 elements (several blocks; reductions in
// two kernels, with partial tiles and warps clamped at their last valid
// lane). Thrust and CUB launch their kernels through cudaLaunchKernelEx
// from helpers that take the kernel as a parameter; the launching helpers
// are specialised for each kernel so the launch names it, and CUB's
// kernels (parameters passed as unions and by reference, block storage in
// shared memory declared as bytes, 32-bit PTX shuffles of a double's
// halves) get derivative kernels. Before, this was an error ("cannot
// differentiate a kernel launch (cudaLaunchKernelExC) whose kernel the
// call does not name"). Gradients against central differences, forward
// mode against reverse; a float reduction, and a device lambda capturing a
// scalar with a kernel launched on a device vector's memory, against their
// analytic gradients.
// At -O0 the transform with a binary functor launches a kernel that CUB's
// dispatch chooses at run time, which the engine cannot follow (an error
// at the link, docs/cuda.md); thrust-unoptimised.cu checks what works.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O1 %s -o %t.O1 && %t.O1 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// At -O0 the engine stops with errors rather than differentiating wrongly.
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 2>&1 | FileCheck %s --check-prefix=O0
// O0: cannot differentiate a kernel launch (cudaLaunchKernelExC) whose kernel the program chooses at run time
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/fill.h>
#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const;

constexpr int N = 5000;

struct Blend {
  double A;
  __host__ __device__ double operator()(double X, double Y) const {
    return A * X * Y + sin(X);
  }
};
struct Damp {
  __host__ __device__ void operator()(double &X) const { X = X / (1 + X * X); }
};
struct Square {
  __host__ __device__ double operator()(double X) const { return X * X; }
};

double loss(const double *X, const double *Y, int Count) {
  thrust::device_vector<double> DX(X, X + Count), DY(Y, Y + Count), Z(Count),
      W(Count);
  thrust::fill(W.begin(), W.end(), 0.5);
  thrust::transform(DX.begin(), DX.end(), DY.begin(), Z.begin(), Blend{1.5});
  thrust::for_each(Z.begin(), Z.end(), Damp());
  thrust::transform(Z.begin(), Z.end(), W.begin(), W.begin(),
                    thrust::multiplies<double>());
  double Sum = thrust::reduce(W.begin(), W.end());
  double Squares = thrust::transform_reduce(Z.begin(), Z.end(), Square(), 0.0,
                                            thrust::plus<double>());
  double Back[10];
  thrust::copy(Z.begin(), Z.begin() + 10, Back);
  double Head = 0;
  for (int I = 0; I < 10; ++I)
    Head += Back[I] * Back[I] * Back[I];
  return Sum + 0.25 * Squares + Head;
}

// Floats: CUB shuffles a float's bits as one 32-bit word.
struct HalfSquare {
  __host__ __device__ float operator()(float X) const { return 0.5f * X * X; }
};
float lossFloat(const float *X, int Count) {
  thrust::device_vector<float> D(X, X + Count);
  return thrust::transform_reduce(D.begin(), D.end(), HalfSquare(), 0.0f,
                                  thrust::plus<float>());
}
extern float __enzyme_autodiff_float(void *, ...) asm("__enzyme_autodiff");

// A device lambda that captures a scalar with a derivative, and a kernel of
// the program's own launched on a device vector's memory.
__global__ void scale(double *X, int Count, double A) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < Count)
    X[I] *= A;
}
double lossLambda(const double *X, int Count, double A) {
  thrust::device_vector<double> D(X, X + Count), E(Count);
  thrust::transform(D.begin(), D.end(), E.begin(),
                    [=] __device__(double V) { return A * V * V; });
  scale<<<(Count + 127) / 128, 128>>>(thrust::raw_pointer_cast(E.data()),
                                      Count, A);
  return thrust::reduce(E.begin(), E.end());
}

int main() {
  static double X[N], Y[N], GX[N], GY[N], TX[N], TY[N];
  for (int I = 0; I < N; ++I) {
    X[I] = 0.3 + 0.7 * sin(0.01 * I);
    Y[I] = 1.1 - 0.4 * cos(0.013 * I);
  }
  __enzyme_autodiff((void *)loss, enzyme_dup, X, GX, enzyme_dup, Y, GY,
                    enzyme_const, N);
  const int Probes[] = {0, 3, 9, 10, 31, 32, 255, 256, 2047, 4095, 4999};
  for (int I : Probes) {
    const double H = 1e-6;
    for (double *V : {X, Y}) {
      double Saved = V[I];
      V[I] = Saved + H;
      double Up = loss(X, Y, N);
      V[I] = Saved - H;
      double Down = loss(X, Y, N);
      V[I] = Saved;
      double Got = V == X ? GX[I] : GY[I];
      char Name[64];
      snprintf(Name, sizeof Name, "d%c[%d]", V == X ? 'x' : 'y', I);
      checkClose(Name, Got, (Up - Down) / (2 * H), 1e-6);
    }
  }
  // Forward mode: the tangent along (TX, TY) is the gradient's dot product.
  double Dot = 0;
  for (int I = 0; I < N; ++I) {
    TX[I] = cos(0.7 * I);
    TY[I] = sin(0.3 * I);
    Dot += GX[I] * TX[I] + GY[I] * TY[I];
  }
  double Tangent = __enzyme_fwddiff((void *)loss, enzyme_dup, X, TX,
                                    enzyme_dup, Y, TY, enzyme_const, N);
  checkClose("tangent", Tangent, Dot, 1e-9);

  static float F[N], GF[N];
  for (int I = 0; I < N; ++I)
    F[I] = float(X[I]);
  __enzyme_autodiff_float((void *)lossFloat, enzyme_dup, F, GF, enzyme_const,
                          N);
  bool FloatOk = true;
  for (int I = 0; I < N; ++I)
    FloatOk &= std::fabs(GF[I] - F[I]) <= 1e-6f * (1 + std::fabs(F[I]));
  check("float gradient", FloatOk);

  // sum A^2 x^2: d/dx = 2 A^2 x, d/dA = 2 A sum x^2.
  for (int I = 0; I < N; ++I)
    GX[I] = 0;
  const double A = 1.5;
  double GA = __enzyme_autodiff((void *)lossLambda, enzyme_dup, X, GX,
                                enzyme_const, N, A);
  bool LambdaOk = true;
  double Squares = 0;
  for (int I = 0; I < N; ++I) {
    Squares += X[I] * X[I];
    LambdaOk &= std::fabs(GX[I] - 2 * A * A * X[I]) <=
                1e-12 * (1 + std::fabs(X[I]));
  }
  check("lambda gradient", LambdaOk);
  checkClose("captured scalar's gradient", GA, 2 * A * Squares, 1e-10);
  return finish();
}
