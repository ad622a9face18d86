// Every thread reads the same parameters, so in the reverse pass every
// thread adds into the same adjoints at once: those additions are atomic
// (without them the sums lost updates, differently from run to run). A
// shadow the kernel keeps in a local variable takes plain additions (PTX
// atomics on local memory are undefined). Checked against the sums worked
// out on the host, at -O0 and -O2, in reverse and forward mode.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -mllvm -enzyme-warp-aggregated-atomics=true %s -o %t.warps && %t.warps | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// RUN: %clangxx_enzyme -fenzyme -O2 -mllvm -enzyme-inline-device-derivatives=false --cuda-device-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// CHECK-NOT: FAIL
// CHECK: all checks passed
// The model's reads of P: atomic additions, after a check for local memory;
// a full warp adding into one address sums its lanes' adjoints first
// (emulation adds lane by lane unless asked to sum as on a GPU).
// The lanes are grouped by address once for P[0] and P[1] (one base).
// IR-LABEL: define internal void @_Z5modelPKdS0_Pd.grad(
// IR:         %[[ACTIVE:.*]] = {{.*}}call i32 @llvm.nvvm.activemask()
// IR:         call i1 @llvm.nvvm.isspacep.local(
// IR:         %[[PEERS:.*]] = {{.*}}call i32 @llvm.nvvm.match.any.sync.i64(i32 %[[ACTIVE]],
// IR:         icmp eq i32 %[[PEERS]], -1
// IR-NOT:     match.any
// IR:         atomicrmw fadd ptr {{.*}} monotonic
// IR-NOT:     match.any
// IR:         atomicrmw fadd ptr {{.*}} monotonic
// IR:       ret void
#include "../Inputs/check.h"

extern __device__ void __enzyme_autodiff(void *, ...);
extern __device__ double __enzyme_fwddiff(void *, ...);
__device__ int enzyme_dup, enzyme_const;

__device__ void model(const double *P, const double *X, double *Y) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  Y[I] = P[0] * X[I] + P[1] * X[I] * X[I];
}

__global__ void gradient(const double *P, double *DP, const double *X,
                         double *Y, double *DY) {
  __enzyme_autodiff((void *)model, enzyme_dup, P, DP, enzyme_const, X,
                    enzyme_dup, Y, DY);
}

// Each thread's own copy of the parameters' shadow, in local memory, added
// into the global sums afterwards.
__global__ void gradientLocalShadow(const double *P, double *DP,
                                    const double *X, double *Y, double *DY) {
  double Local[2] = {0, 0};
  __enzyme_autodiff((void *)model, enzyme_dup, P, Local, enzyme_const, X,
                    enzyme_dup, Y, DY);
  atomicAdd(&DP[0], Local[0]);
  atomicAdd(&DP[1], Local[1]);
}

__device__ double weighted(const double *P, const double *X) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  return P[0] * X[I] + P[1] * X[I] * X[I];
}

__global__ void tangent(const double *P, const double *DP, const double *X,
                        double *T) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  T[I] = __enzyme_fwddiff((void *)weighted, enzyme_dup, P, DP, enzyme_const,
                          X);
}

int main() {
  const int N = 8192;
  double *P, *DP, *X, *Y, *DY, *T;
  CUDA_CHECK(cudaMallocManaged(&P, 2 * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DP, 2 * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&X, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Y, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DY, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&T, N * sizeof(double)));
  P[0] = 1.5;
  P[1] = -0.5;
  double Sum1 = 0, Sum2 = 0;
  for (int I = 0; I < N; ++I) {
    X[I] = 0.001 * (I % 1000) - 0.3;
    Sum1 += X[I];
    Sum2 += X[I] * X[I];
  }
  for (int Kernel = 0; Kernel < 2; ++Kernel) {
    DP[0] = DP[1] = 0;
    for (int I = 0; I < N; ++I)
      DY[I] = 1;
    if (Kernel == 0)
      gradient<<<N / 128, 128>>>(P, DP, X, Y, DY);
    else
      gradientLocalShadow<<<N / 128, 128>>>(P, DP, X, Y, DY);
    CUDA_CHECK(cudaDeviceSynchronize());
    const char *Name = Kernel == 0 ? "shared adjoints" : "local shadow";
    char Label[64];
    std::snprintf(Label, sizeof Label, "%s: d/dP0", Name);
    checkClose(Label, DP[0], Sum1, 1e-9);
    std::snprintf(Label, sizeof Label, "%s: d/dP1", Name);
    checkClose(Label, DP[1], Sum2, 1e-9);
  }
  DP[0] = 0.25;
  DP[1] = 2;
  tangent<<<N / 128, 128>>>(P, DP, X, T);
  CUDA_CHECK(cudaDeviceSynchronize());
  bool TangentOk = true;
  for (int I = 0; I < N; ++I)
    TangentOk &= std::fabs(T[I] - (0.25 * X[I] + 2 * X[I] * X[I])) < 1e-12;
  check("forward mode: tangents", TangentOk);
  return finish();
}
