// Differentiated host code that launches kernels with cudaLaunchKernelEx:
// the C++ template (which converts the arguments to the kernel's parameter
// types: an int literal and a double given for float parameters) and the C
// form cudaLaunchKernelExC with launch attributes (priority, a cluster
// dimension, a launch completion event that the program then reads), and
// with cudaLaunchCooperativeKernel, with nothing but __enzyme_autodiff and
// __enzyme_fwddiff. The primal call of
// the same function keeps the attributes too (the event is recorded).
// Checked against analytic gradients at -O0 and -O2, forward mode against
// them.
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

constexpr int N = 64;

__global__ void square(double *Out, const double *In, int N, float S,
                       float Offset) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = S * In[I] * In[I] + Offset;
}

__global__ void addSin(double *Out, const double *In, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] += std::sin(In[I]);
}

__global__ void halve(double *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] *= 0.5;
}

cudaEvent_t Done;
int Launches;

// loss = sum_i (float(S) x_i^2 + 2 + sin x_i) / 2
double loss(const double *X, double S) {
  constexpr size_t Bytes = N * sizeof(double);
  cudaStream_t Stream;
  cudaStreamCreate(&Stream);
  double *In, *Out;
  cudaMalloc(&In, Bytes);
  cudaMalloc(&Out, Bytes);
  cudaMemcpy(In, X, Bytes, cudaMemcpyHostToDevice);

  cudaLaunchConfig_t Config = {};
  Config.gridDim = dim3(N / 16);
  Config.blockDim = dim3(16);
  Config.stream = Stream;
  Launches += cudaLaunchKernelEx(&Config, square, Out, In, N, S, 2) ==
              cudaSuccess;

  cudaLaunchAttribute Attrs[3] = {};
  Attrs[0].id = cudaLaunchAttributePriority;
  Attrs[0].val.priority = 0;
  Attrs[1].id = cudaLaunchAttributeClusterDimension;
  Attrs[1].val.clusterDim.x = 2;
  Attrs[1].val.clusterDim.y = 1;
  Attrs[1].val.clusterDim.z = 1;
  Attrs[2].id = cudaLaunchAttributeLaunchCompletionEvent;
  Attrs[2].val.launchCompletionEvent.event = Done;
  cudaLaunchConfig_t WithAttrs = {};
  WithAttrs.gridDim = dim3(N / 8);
  WithAttrs.blockDim = dim3(8);
  WithAttrs.attrs = Attrs;
  WithAttrs.numAttrs = 3;
  int Count = N;
  void *Args[] = {&Out, &In, &Count};
  Launches += cudaLaunchKernelExC(&WithAttrs, (const void *)addSin, Args) ==
              cudaSuccess;

  // The template form of cudaLaunchCooperativeKernel.
  void *HalveArgs[] = {&Out, &Count};
  Launches += cudaLaunchCooperativeKernel(halve, dim3(N / 32), dim3(32),
                                          HalveArgs, 0, Stream) == cudaSuccess;

  double Back[N];
  cudaMemcpy(Back, Out, Bytes, cudaMemcpyDeviceToHost);
  cudaFree(In);
  cudaFree(Out);
  cudaStreamDestroy(Stream);
  double Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += Back[I];
  return Sum;
}

int main() {
  double X[N], DX[N] = {};
  for (int I = 0; I < N; ++I)
    X[I] = 0.05 * I - 1.3;
  const double S = 1.5;
  cudaEvent_t Start;
  CUDA_CHECK(cudaEventCreate(&Start));
  CUDA_CHECK(cudaEventRecord(Start));
  CUDA_CHECK(cudaEventCreate(&Done));

  // The primal: the completion event is recorded.
  double Expected = 0;
  for (int I = 0; I < N; ++I)
    Expected += (S * X[I] * X[I] + 2 + std::sin(X[I])) / 2;
  checkClose("primal", loss(X, S), Expected, 1e-12);
  check("the primal's launches succeed", Launches == 3);
  float Ms = -1;
  check("the primal records the launch completion event",
        cudaEventElapsedTime(&Ms, Start, Done) == cudaSuccess && Ms >= 0);

  // A fresh event: the augmented launch records it, as the primal does.
  CUDA_CHECK(cudaEventDestroy(Done));
  CUDA_CHECK(cudaEventCreate(&Done));
  double DS = __enzyme_autodiff((void *)loss, enzyme_dup, X, DX, S);
  Ms = -1;
  check("the derivative records the launch completion event",
        cudaEventElapsedTime(&Ms, Start, Done) == cudaSuccess && Ms >= 0);
  bool XOk = true;
  double ExpectedDS = 0;
  for (int I = 0; I < N; ++I) {
    XOk &= std::fabs(DX[I] - (2 * S * X[I] + std::cos(X[I])) / 2) <= 1e-12;
    ExpectedDS += X[I] * X[I] / 2;
  }
  check("d/dx through cudaLaunchKernelEx, cudaLaunchKernelExC and "
        "cudaLaunchCooperativeKernel",
        XOk);
  checkClose("d/dS of a double converted to the kernel's float parameter", DS,
             ExpectedDS, 1e-6);
  check("the derivative's launches succeed", Launches == 6);

  double TX[N], Projection = 0;
  for (int I = 0; I < N; ++I) {
    TX[I] = std::cos(0.3 * I);
    Projection += DX[I] * TX[I];
  }
  Projection += DS * 0.5;
  double Tangent =
      __enzyme_fwddiff((void *)loss, enzyme_dup, X, TX, S, 0.5);
  checkClose("forward mode through cudaLaunchKernelEx", Tangent, Projection,
             1e-6);
  check("the tangent's launches succeed", Launches == 9);
  return finish();
}
