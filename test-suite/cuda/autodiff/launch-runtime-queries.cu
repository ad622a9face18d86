// Differentiated host code that asks the runtime how to launch
// (cudaOccupancyMaxPotentialBlockSize, which the runtime header builds from
// cudaFuncGetAttributes, cudaDeviceGetAttribute and
// cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags), launches on a
// stream created with the greatest priority it asks the range of, records an
// event with flags, states cache preferences and reads versions and device
// flags: none of it carries a derivative, and each call runs once, in the
// forward pass. Before, each was a link error ("no derivative rule").
// Checked against analytic gradients at -O0 and -O2, forward mode against
// them.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"
#include <cuda_profiler_api.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const;

constexpr int N = 300;

__global__ void cube(double *X, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    X[I] = X[I] * X[I] * X[I];
}

int Calls;
bool Consistent = true;

// loss = sum_i x_i^3
double loss(const double *X) {
  ++Calls;
  int MinGrid = 0, Block = 0;
  Consistent &= cudaOccupancyMaxPotentialBlockSize(&MinGrid, &Block, cube, 0,
                                                   0) == cudaSuccess;
  size_t Dynamic = 0;
  Consistent &= cudaOccupancyAvailableDynamicSMemPerBlock(
                    &Dynamic, (const void *)cube, 1, Block) == cudaSuccess;
  int Least = 1, Greatest = 1;
  cudaDeviceGetStreamPriorityRange(&Least, &Greatest);
  cudaStream_t Stream;
  cudaStreamCreateWithPriority(&Stream, cudaStreamNonBlocking, Greatest);
  int Priority = 1;
  unsigned Flags = 0, DeviceFlags = 1;
  cudaStreamGetPriority(Stream, &Priority);
  cudaStreamGetFlags(Stream, &Flags);
  cudaGetDeviceFlags(&DeviceFlags);
  int Runtime = 0, Driver = 0;
  cudaRuntimeGetVersion(&Runtime);
  cudaDriverGetVersion(&Driver);
  Consistent &= Block > 0 && MinGrid > 0 && Dynamic >= 48 * 1024 &&
                Least == 0 && Greatest <= 0 && Priority == Greatest &&
                (Flags & cudaStreamNonBlocking) && Runtime > 0 &&
                Driver >= Runtime;
  cudaFuncSetCacheConfig((const void *)cube, cudaFuncCachePreferL1);
  cudaDeviceSetCacheConfig(cudaFuncCachePreferShared);
  cudaProfilerStart();

  double *D;
  cudaMalloc(&D, N * sizeof(double));
  cudaMemcpyAsync(D, X, N * sizeof(double), cudaMemcpyHostToDevice, Stream);
  cube<<<(N + Block - 1) / Block, Block, 0, Stream>>>(D, N);
  cudaEvent_t Done;
  cudaEventCreateWithFlags(&Done, cudaEventDisableTiming);
  cudaEventRecordWithFlags(Done, Stream, cudaEventRecordDefault);
  cudaEventSynchronize(Done);
  double Back[N];
  cudaMemcpy(Back, D, sizeof Back, cudaMemcpyDeviceToHost);
  cudaFree(D);
  cudaEventDestroy(Done);
  cudaStreamDestroy(Stream);
  cudaProfilerStop();
  double Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += Back[I];
  return Sum;
}

int main() {
  double X[N], DX[N] = {};
  for (int I = 0; I < N; ++I)
    X[I] = 0.01 * I - 1.4;
  __enzyme_autodiff((void *)loss, enzyme_dup, X, DX);
  bool Ok = true;
  for (int I = 0; I < N; ++I)
    Ok &= std::fabs(DX[I] - 3 * X[I] * X[I]) <= 1e-12;
  check("d/dx of a launch sized by the occupancy API, on a priority stream",
        Ok);
  check("the runtime's answers in the derivative's forward pass", Consistent);
  check("the derivative runs the function once", Calls == 1);

  double TX[N], Projection = 0;
  for (int I = 0; I < N; ++I) {
    TX[I] = std::sin(0.1 * I);
    Projection += DX[I] * TX[I];
  }
  double Tangent = __enzyme_fwddiff((void *)loss, enzyme_dup, X, TX);
  checkClose("forward mode", Tangent, Projection, 1e-12);
  check("the runtime's answers in forward mode", Consistent && Calls == 2);
  return finish();
}
