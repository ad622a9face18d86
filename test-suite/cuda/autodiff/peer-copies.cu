// Differentiated host code that copies device memory between devices
// (cudaMemcpyPeer, cudaMemcpyPeerAsync) after asking whether the devices
// may read each other's memory: the reverse pass moves the adjoints of the
// destination back to the source, forward mode copies the tangents, as for
// cudaMemcpy; the peer-access queries carry no derivative. Before, each
// was a link error ("no derivative rule"). Emulation and the lent GPUs have
// one device, so both ends are device 0 here. Analytic gradients at -O0
// and -O2, forward mode against them.
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

constexpr int N = 200;

__global__ void squareInto(const float *X, float *Y, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Y[I] = X[I] * X[I];
}

bool Consistent = true;

// loss = sum_i (x_i^2 + 3 x_i) with x staged on the device, copied to a
// peer buffer, squared there, and both copied to the first device.
double loss(const float *X) {
  int Device = 0, CanAccess = -1;
  cudaGetDevice(&Device);
  Consistent &= cudaDeviceCanAccessPeer(&CanAccess, Device, Device) ==
                    cudaSuccess &&
                CanAccess == 0;
  float *A, *B, *C, *D;
  cudaMalloc(&A, N * sizeof(float));
  cudaMalloc(&B, N * sizeof(float));
  cudaMalloc(&C, N * sizeof(float));
  cudaMalloc(&D, N * sizeof(float));
  cudaMemcpy(A, X, N * sizeof(float), cudaMemcpyHostToDevice);
  Consistent &= cudaMemcpyPeer(B, Device, A, Device, N * sizeof(float)) ==
                cudaSuccess;
  squareInto<<<(N + 63) / 64, 64>>>(B, B, N);
  cudaStream_t Stream;
  cudaStreamCreate(&Stream);
  cudaMemcpyPeerAsync(C, Device, B, Device, N * sizeof(float), Stream);
  cudaMemcpyPeerAsync(D, Device, A, Device, N * sizeof(float), Stream);
  cudaStreamSynchronize(Stream);
  float Squares[N], Copies[N];
  cudaMemcpy(Squares, C, sizeof Squares, cudaMemcpyDeviceToHost);
  cudaMemcpy(Copies, D, sizeof Copies, cudaMemcpyDeviceToHost);
  cudaFree(A);
  cudaFree(B);
  cudaFree(C);
  cudaFree(D);
  cudaStreamDestroy(Stream);
  double Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += Squares[I] + 3.0 * Copies[I];
  return Sum;
}

int main() {
  float X[N], DX[N] = {};
  for (int I = 0; I < N; ++I)
    X[I] = 0.02f * I - 1.7f;
  __enzyme_autodiff((void *)loss, enzyme_dup, X, DX);
  bool Ok = true;
  for (int I = 0; I < N; ++I)
    Ok &= std::fabs(DX[I] - (2 * X[I] + 3)) <= 1e-5;
  check("d/dx through peer copies, both ways", Ok);
  check("the peer queries in the derivative's forward pass", Consistent);

  float TX[N];
  double Projection = 0;
  for (int I = 0; I < N; ++I) {
    TX[I] = std::cos(0.3f * I);
    Projection += double(DX[I]) * TX[I];
  }
  double Tangent = __enzyme_fwddiff((void *)loss, enzyme_dup, X, TX);
  checkClose("forward mode", Tangent, Projection, 1e-5);
  return finish();
}
