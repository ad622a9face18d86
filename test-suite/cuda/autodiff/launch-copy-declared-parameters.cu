// Copies that only the declared types of the parameters they copy through
// say anything about, in unoptimised code: helpers in the style of
// Thrust's cross_system_copy_n take the device and host pointers as
// `double *` and `const double *` parameters beside an empty tag class
// passed by value (std::integral_constant, which the x86-64 ABI leaves out
// of the IR's parameters), and pass them through variables and an
// identity cast (Thrust's raw_pointer_cast) to cudaMemcpy; a method does
// the same with `this` first. Before, these copies were untyped at -O0 (the
// derivative stopped: "nothing in the program says whether the memory it
// copies holds float, double, integer or pointer values"): the search
// followed one variable and needed the IR's parameters to match the
// declared ones one to one. Analytic gradients at -O0 and -O2, forward
// mode against them.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"
#include <type_traits>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup;

constexpr int N = 80;

template <class T> T *rawCast(T *P) { return P; }
struct Device {};

void upload(Device &, double *Dst, const double *Src, long Count,
            std::true_type) {
  double *To = rawCast(Dst);
  const double *From = rawCast(Src);
  cudaMemcpy(To, From, Count * sizeof(double), cudaMemcpyHostToDevice);
}

struct Stager {
  int Copies = 0;
  void download(double *Dst, const double *Src, long Count, std::true_type) {
    double *To = rawCast(Dst);
    const double *From = rawCast(Src);
    cudaMemcpyAsync(To, From, Count * sizeof(double), cudaMemcpyDeviceToHost,
                    0);
    cudaStreamSynchronize(0);
    ++Copies;
  }
};

__global__ void square(double *X, int Count) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < Count)
    X[I] = X[I] * X[I];
}

// loss = sum_i (i + 1) x_i^2
double loss(const double *X) {
  Device Dev;
  Stager Back;
  double *A;
  cudaMalloc(&A, N * sizeof(double));
  upload(Dev, A, X, N, std::true_type());
  square<<<(N + 31) / 32, 32>>>(A, N);
  double Host[N];
  Back.download(Host, A, N, std::true_type());
  cudaFree(A);
  double Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += (I + 1) * Host[I];
  return Sum;
}

int main() {
  double X[N], G[N] = {}, T[N];
  double Dot = 0;
  for (int I = 0; I < N; ++I) {
    X[I] = 0.5 + 0.01 * I;
    T[I] = 1 - 0.02 * I;
  }
  __enzyme_autodiff((void *)loss, enzyme_dup, X, G);
  bool Ok = true;
  for (int I = 0; I < N; ++I) {
    double Expected = 2 * (I + 1) * X[I];
    Ok &= std::fabs(G[I] - Expected) <= 1e-12 * (1 + std::fabs(Expected));
    Dot += Expected * T[I];
  }
  check("gradient", Ok);
  checkClose("tangent", __enzyme_fwddiff((void *)loss, enzyme_dup, X, T), Dot,
             1e-12);
  return finish();
}
