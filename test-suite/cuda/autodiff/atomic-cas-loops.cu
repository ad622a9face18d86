// Atomic additions written as compare-and-swap loops on a float's bits, as
// code from before GPUs had an atomic addition of doubles writes them (the
// CUDA Programming Guide's own atomicAdd for double, on unsigned long long),
// and as float code does with atomicCAS on int: a loop that retries
// atomicCAS(p, assumed, bits(value(assumed) + v)) until nothing changed
// the value in between. The derivative went through integers: an error
// ("floats whose bits ... are moved as integers" at -O0, "an atomic
// operation on memory with derivatives" at -O2). Now such a loop is the
// atomic addition (or subtraction) it computes (Modes/AtomicUpdateLoops.h),
// differentiated like atomicAdd. Central differences, -O0 and -O2; forward
// against reverse.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// RUN: %clangxx_enzyme -fenzyme -O2 --cuda-device-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// CHECK-NOT: FAIL
// CHECK: all checks passed
// The derivative kernels add atomically and retry nothing.
// IR-LABEL: define {{.*}}void @_enzyme_kernel_reverse__Z6energyPKdPKfPdPfi(
// IR-NOT:     cmpxchg
// IR:         atomicrmw fadd
// IR-NOT:     cmpxchg
// IR:       ret void
#include "../Inputs/check.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const, enzyme_out;

__device__ double atomicAddDouble(double *Address, double Value) {
  unsigned long long *Bits = (unsigned long long *)Address;
  unsigned long long Old = *Bits, Assumed;
  do {
    Assumed = Old;
    Old = atomicCAS(Bits, Assumed,
                    __double_as_longlong(Value + __longlong_as_double(Assumed)));
  } while (Assumed != Old);
  return __longlong_as_double(Old);
}

__device__ float atomicSubFloat(float *Address, float Value) {
  int *Bits = (int *)Address;
  int Old = *Bits, Assumed;
  do {
    Assumed = Old;
    Old = atomicCAS(Bits, Assumed,
                    __float_as_int(__int_as_float(Assumed) - Value));
  } while (Assumed != Old);
  return __int_as_float(Old);
}

// Total = sum x_i^2 + sum 3 y_i; Debt = -sum y_i x_i.
__global__ void energy(const double *X, const float *Y, double *Total,
                       float *Debt, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    atomicAddDouble(Total, X[I] * X[I] + 3.0 * Y[I]);
    atomicSubFloat(Debt, Y[I] * (float)X[I]);
  }
}

double loss(const double *X, const float *Y, int N) {
  double *DX, *DT;
  float *DY, *DD;
  CUDA_CHECK(cudaMalloc(&DX, N * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&DY, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&DT, sizeof(double)));
  CUDA_CHECK(cudaMalloc(&DD, sizeof(float)));
  CUDA_CHECK(cudaMemcpy(DX, X, N * sizeof(double), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(DY, Y, N * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(DT, 0, sizeof(double)));
  CUDA_CHECK(cudaMemset(DD, 0, sizeof(float)));
  energy<<<(N + 31) / 32, 32>>>(DX, DY, DT, DD, N);
  double Total;
  float Debt;
  CUDA_CHECK(cudaMemcpy(&Total, DT, sizeof Total, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&Debt, DD, sizeof Debt, cudaMemcpyDeviceToHost));
  cudaFree(DX), cudaFree(DY), cudaFree(DT), cudaFree(DD);
  return Total + 2.0 * Debt;
}

int main() {
  constexpr int N = 70;
  double X[N], GX[N] = {}, TX[N];
  float Y[N], GY[N] = {}, TY[N];
  for (int I = 0; I < N; ++I) {
    X[I] = std::sin(0.3 * I);
    Y[I] = (float)std::cos(0.7 * I);
    TX[I] = 0.5 + 0.01 * I;
    TY[I] = (float)(0.25 - 0.005 * I);
  }
  __enzyme_autodiff((void *)loss, enzyme_dup, X, GX, enzyme_dup, Y, GY,
                    enzyme_const, N);
  // d/dx_i = 2 x_i - 2 y_i, d/dy_i = 3 - 2 x_i.
  bool Ok = true;
  double Dot = 0;
  for (int I = 0; I < N; ++I) {
    double WantX = 2 * X[I] - 2 * Y[I], WantY = 3 - 2 * (float)X[I];
    if (std::fabs(GX[I] - WantX) > 1e-5 || std::fabs(GY[I] - WantY) > 1e-5) {
      std::printf("FAIL gradient %d: got %g %g, expected %g %g\n", I, GX[I],
                  GY[I], WantX, WantY);
      Ok = false;
    }
    Dot += GX[I] * TX[I] + GY[I] * TY[I];
  }
  check("gradient through compare-and-swap loops", Ok);
  double H = 1e-3;
  for (int I : {0, 33, 69}) {
    double Save = X[I];
    X[I] = Save + H;
    double Up = loss(X, Y, N);
    X[I] = Save - H;
    double Down = loss(X, Y, N);
    X[I] = Save;
    checkClose("central difference", GX[I], (Up - Down) / (2 * H), 1e-3);
  }
  double Tangent = __enzyme_fwddiff((void *)loss, enzyme_dup, X, TX,
                                    enzyme_dup, Y, TY, enzyme_const, N);
  checkClose("tangent against the gradient", Tangent, Dot, 1e-5);
  return finish();
}
