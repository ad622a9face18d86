// The CUDA runtime API as programs use it: cudaLaunchKernel and
// cudaLaunchKernelEx (with launch attributes), streams (priorities, host
// functions) and
// events, every copy kind (2D and pitched allocations too), managed memory
// and its hints (cudaMemAdvise, cudaMemPrefetchAsync), __device__ and
// __constant__ variables
// through symbols, device properties and function attributes.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"
#include <cstring>

__constant__ double Scale[2];
__device__ int Calls;

struct Params {
  int N;
  double Offset;
};

__global__ void affine(Params P, const double *In, double *Out) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < P.N)
    Out[I] = Scale[0] * In[I] + Scale[1] + P.Offset;
  if (I == 0) {
    atomicAdd(&Calls, 1);
  }
}

int main() {
  const int N = 300;
  double Host[N], Back[N];
  for (int I = 0; I < N; ++I)
    Host[I] = I;
  double *In, *Out;
  CUDA_CHECK(cudaMalloc(&In, N * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&Out, N * sizeof(double)));
  CUDA_CHECK(cudaMemcpy(In, Host, sizeof Host, cudaMemcpyHostToDevice));
  double S[2] = {2, 0.5};
  CUDA_CHECK(cudaMemcpyToSymbol(Scale, S, sizeof S));

  // The launch interface without <<<>>>, on a stream, timed with events.
  cudaStream_t Stream;
  cudaEvent_t Start, Stop;
  CUDA_CHECK(cudaStreamCreate(&Stream));
  CUDA_CHECK(cudaEventCreate(&Start));
  CUDA_CHECK(cudaEventCreate(&Stop));
  Params P{N, 1.0};
  void *Args[] = {&P, &In, &Out};
  CUDA_CHECK(cudaEventRecord(Start, Stream));
  CUDA_CHECK(cudaLaunchKernel((const void *)affine, dim3((N + 127) / 128),
                              dim3(128), Args, 0, Stream));
  CUDA_CHECK(cudaEventRecord(Stop, Stream));
  CUDA_CHECK(cudaStreamSynchronize(Stream));
  CUDA_CHECK(cudaEventSynchronize(Stop));
  float Ms = -1;
  CUDA_CHECK(cudaEventElapsedTime(&Ms, Start, Stop));
  check("events measure elapsed time", Ms >= 0);
  affine<<<(N + 63) / 64, 64, 0, Stream>>>(P, In, Out);
  CUDA_CHECK(cudaStreamSynchronize(Stream));

  // Host work on a stream, stream priorities and flags, device flags and
  // cache preferences.
  int HostCalls = 0;
  CUDA_CHECK(cudaLaunchHostFunc(
      Stream, [](void *Count) { ++*static_cast<int *>(Count); }, &HostCalls));
  CUDA_CHECK(cudaStreamAddCallback(
      Stream,
      [](cudaStream_t, cudaError_t Status, void *Count) {
        *static_cast<int *>(Count) += Status == cudaSuccess ? 10 : 100;
      },
      &HostCalls, 0));
  CUDA_CHECK(cudaStreamSynchronize(Stream));
  check("host functions and callbacks on a stream run", HostCalls == 11);
  int Least = 1, Greatest = 1, Priority = 1;
  CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&Least, &Greatest));
  cudaStream_t Urgent;
  CUDA_CHECK(cudaStreamCreateWithPriority(&Urgent, cudaStreamNonBlocking,
                                          Greatest - 10));
  CUDA_CHECK(cudaStreamGetPriority(Urgent, &Priority));
  unsigned StreamFlags = 0;
  CUDA_CHECK(cudaStreamGetFlags(Urgent, &StreamFlags));
  check("stream priorities are clamped to the device's range",
        Least == 0 && Greatest < 0 && Priority == Greatest);
  check("stream flags", StreamFlags == cudaStreamNonBlocking);
  CUDA_CHECK(cudaStreamDestroy(Urgent));
  unsigned DeviceFlags = 0;
  CUDA_CHECK(cudaSetDeviceFlags(cudaDeviceScheduleYield));
  CUDA_CHECK(cudaGetDeviceFlags(&DeviceFlags));
  check("device flags", DeviceFlags & cudaDeviceScheduleYield);
  CUDA_CHECK(cudaFuncSetCacheConfig((const void *)affine,
                                    cudaFuncCachePreferL1));
  CUDA_CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
  cudaFuncCache Cache = cudaFuncCachePreferNone;
  CUDA_CHECK(cudaDeviceGetCacheConfig(&Cache));
  check("cache preferences", Cache == cudaFuncCachePreferShared);
  int MinGrid = 0, BestBlock = 0;
  CUDA_CHECK(
      cudaOccupancyMaxPotentialBlockSize(&MinGrid, &BestBlock, affine, 0, 0));
  size_t Dynamic = 0;
  CUDA_CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(
      &Dynamic, (const void *)affine, 1, BestBlock));
  check("occupancy", MinGrid > 0 && BestBlock > 0 && BestBlock <= 1024 &&
                         Dynamic >= 48 * 1024 - 16);

  // cudaLaunchKernelEx: the C++ template converts its arguments; the C form
  // takes attributes: a cluster must divide the grid, and a launch
  // completion event is recorded.
  cudaLaunchConfig_t Config = {};
  Config.gridDim = dim3((N + 127) / 128);
  Config.blockDim = dim3(128);
  Config.stream = Stream;
  CUDA_CHECK(cudaLaunchKernelEx(&Config, affine, P, In, Out));
  cudaLaunchAttribute Attrs[2] = {};
  Attrs[0].id = cudaLaunchAttributeClusterDimension;
  Attrs[0].val.clusterDim.x = 2;
  Attrs[0].val.clusterDim.y = 1;
  Attrs[0].val.clusterDim.z = 1;
  Config.attrs = Attrs;
  Config.numAttrs = 1;
  check("a cluster that does not divide the grid is refused",
        cudaLaunchKernelExC(&Config, (const void *)affine, Args) !=
            cudaSuccess);
  cudaGetLastError();
  cudaEvent_t Completed;
  CUDA_CHECK(cudaEventCreate(&Completed));
  Attrs[0].val.clusterDim.x = 1;
  Attrs[1].id = cudaLaunchAttributeLaunchCompletionEvent;
  Attrs[1].val.launchCompletionEvent.event = Completed;
  Config.numAttrs = 2;
  CUDA_CHECK(cudaLaunchKernelExC(&Config, (const void *)affine, Args));
  CUDA_CHECK(cudaStreamSynchronize(Stream));
  Ms = -1;
  CUDA_CHECK(cudaEventElapsedTime(&Ms, Start, Completed));
  check("cudaLaunchKernelExC records the launch completion event", Ms >= 0);
  // A cooperative launch runs as any other; one with more blocks than the
  // device holds at once is refused.
  CUDA_CHECK(cudaLaunchCooperativeKernel((const void *)affine,
                                         dim3((N + 127) / 128), dim3(128),
                                         Args, 0, Stream));
  check("a cooperative launch larger than the device is refused",
        cudaLaunchCooperativeKernel((const void *)affine, dim3(1 << 24),
                                    dim3(1024), Args, 0, Stream) ==
            cudaErrorCooperativeLaunchTooLarge);
  cudaGetLastError();

  CUDA_CHECK(cudaMemcpy(Back, Out, sizeof Back, cudaMemcpyDeviceToHost));
  bool Ok = true;
  for (int I = 0; I < N; ++I)
    Ok &= Back[I] == 2 * I + 1.5;
  check("struct argument, constant memory, launches", Ok);

  int Count = 0;
  CUDA_CHECK(cudaMemcpyFromSymbol(&Count, Calls, sizeof Count));
  check("__device__ variable through its symbol", Count == 5);
  int *CallsAddress = nullptr;
  CUDA_CHECK(cudaGetSymbolAddress((void **)&CallsAddress, Calls));
  size_t Size = 0;
  CUDA_CHECK(cudaGetSymbolSize(&Size, Scale));
  check("symbol address and size", CallsAddress != nullptr && Size == 16);

  // Device to device, default direction, memset, 2-D copies.
  double *Copy;
  CUDA_CHECK(cudaMalloc(&Copy, N * sizeof(double)));
  CUDA_CHECK(cudaMemcpy(Copy, Out, N * sizeof(double), cudaMemcpyDeviceToDevice));
  CUDA_CHECK(cudaMemcpyAsync(Back, Copy, sizeof Back, cudaMemcpyDefault, Stream));
  CUDA_CHECK(cudaStreamSynchronize(Stream));
  check("device to device and default copies", Back[N - 1] == 2 * (N - 1) + 1.5);
  CUDA_CHECK(cudaMemset(Copy, 0, N * sizeof(double)));
  CUDA_CHECK(cudaMemcpy(Back, Copy, sizeof Back, cudaMemcpyDeviceToHost));
  check("memset", Back[7] == 0);
  // Managed memory and the hints about where it lives.
  double *Managed = nullptr;
  CUDA_CHECK(cudaMallocManaged(&Managed, N * sizeof(double)));
  cudaMemLocation OnDevice = {cudaMemLocationTypeDevice, 0};
  CUDA_CHECK(cudaMemAdvise(Managed, N * sizeof(double),
                           cudaMemAdviseSetPreferredLocation, OnDevice));
  CUDA_CHECK(cudaMemPrefetchAsync(Managed, N * sizeof(double), OnDevice, 0,
                                  Stream));
  CUDA_CHECK(cudaMemcpyAsync(Managed, Out, N * sizeof(double),
                             cudaMemcpyDefault, Stream));
  CUDA_CHECK(cudaStreamSynchronize(Stream));
  check("managed memory with hints", Managed[3] == 2 * 3 + 1.5);
  CUDA_CHECK(cudaFree(Managed));
  char Rows[3][5], Pitched[3][8];
  std::memset(Pitched, '.', sizeof Pitched);
  for (int R = 0; R < 3; ++R)
    std::memcpy(Rows[R], "abcde", 5);
  CUDA_CHECK(cudaMemcpy2D(Pitched, 8, Rows, 5, 5, 3, cudaMemcpyHostToHost));
  check("2-D copy", std::memcmp(Pitched[2], "abcde...", 8) == 0);
  // Pitched device rows: the pitch holds a row, and a round trip through
  // them (2D copies, one on a stream) gives the rows back.
  char *Device = nullptr, RowsBack[3][5] = {};
  size_t Pitch = 0;
  CUDA_CHECK(cudaMallocPitch((void **)&Device, &Pitch, 5, 3));
  CUDA_CHECK(cudaMemcpy2D(Device, Pitch, Rows, 5, 5, 3, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy2DAsync(RowsBack, 5, Device, Pitch, 5, 3,
                               cudaMemcpyDeviceToHost, 0));
  CUDA_CHECK(cudaStreamSynchronize(0));
  check("pitched rows", Pitch >= 5 && std::memcmp(RowsBack, Rows, 15) == 0);
  CUDA_CHECK(cudaMemset2D(Device, Pitch, 'z', 2, 3));
  CUDA_CHECK(cudaMemset2DAsync(Device + Pitch, Pitch, 'y', 1, 1, 0));
  CUDA_CHECK(cudaMemcpy2D(RowsBack, 5, Device, Pitch, 5, 3,
                          cudaMemcpyDeviceToHost));
  check("2-D memsets", std::memcmp(RowsBack[0], "zzcde", 5) == 0 &&
                           std::memcmp(RowsBack[1], "yzcde", 5) == 0 &&
                           std::memcmp(RowsBack[2], "zzcde", 5) == 0);
  CUDA_CHECK(cudaFree(Device));

  cudaDeviceProp Prop;
  CUDA_CHECK(cudaGetDeviceProperties(&Prop, 0));
  int Count2 = 0, Warp = 0;
  CUDA_CHECK(cudaGetDeviceCount(&Count2));
  CUDA_CHECK(cudaDeviceGetAttribute(&Warp, cudaDevAttrWarpSize, 0));
  check("device properties", Prop.warpSize == 32 && Warp == 32 &&
                                 Prop.maxThreadsPerBlock == 1024 &&
                                 Prop.major >= 7 && Count2 >= 1);
  cudaFuncAttributes Attr;
  CUDA_CHECK(cudaFuncGetAttributes(&Attr, (const void *)affine));
  check("function attributes", Attr.maxThreadsPerBlock >= 128);

  CUDA_CHECK(cudaEventDestroy(Start));
  CUDA_CHECK(cudaEventDestroy(Stop));
  CUDA_CHECK(cudaStreamDestroy(Stream));
  CUDA_CHECK(cudaFree(In));
  CUDA_CHECK(cudaFree(Out));
  CUDA_CHECK(cudaFree(Copy));
  return finish();
}
