// libcu++'s atomics in kernels that differentiated host code launches:
// `cuda::atomic_ref` and `cuda::std::atomic_ref` of doubles and floats,
// fetch_add with a relaxed order, as reductions use them. libcu++ writes
// them as inline PTX (`atom.add.relaxed.gpu.f64`); before, the derivative
// kernels were an error of the device compilation ("inline assembly whose
// result ... carries a derivative"). Now a relaxed `atom` is read as the
// atomicrmw it is (Core/PtxStatements.h). Analytic gradients at -O1 and
// -O2; forward mode against them. An ordered atomic (acquire, release, a
// sequentially consistent fetch_add's fence) orders memory between blocks,
// which reverse mode cannot keep: an error that says so, also at -O0,
// where libcu++'s code holds the atomics of every order behind a switch
// over the order it is passed (the last RUN lines).
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O1 %s -o %t.O1 && %t.O1 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// RUN: %clangxx_enzyme -fenzyme -O2 --cuda-device-only -S %s -o - | FileCheck %s --check-prefix=PTX
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -DSEQ_CST %s -o %t.seq 2>&1 | FileCheck %s --check-prefix=ORDER
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 2>&1 | FileCheck %s --check-prefix=UNOPTIMISED
// CHECK-NOT: FAIL
// CHECK: all checks passed
// PTX-LABEL: .entry _enzyme_kernel_augmented__Z10accumulatePKdPKfPdPfi(
// PTX: atom.global.add.f64
// PTX-LABEL: .entry _enzyme_kernel_reverse__Z10accumulatePKdPKfPdPfi(
// ORDER: error: cannot differentiate kernel 'accumulate(double const*, float const*, double*, float*, int)', which differentiated host code launches: cannot differentiate __threadfence() in reverse mode
// UNOPTIMISED: error: cannot differentiate kernel 'accumulate(double const*, float const*, double*, float*, int)', which differentiated host code launches: cannot differentiate inline assembly that orders memory beyond the block ('atom.add.
#include "../Inputs/check.h"

#include <cuda/atomic>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const, enzyme_out;

// Sums[0] += x_i^2, Sums[1] += 3 x_i, Small[i % 4] += y_i x_i (a float).
__global__ void accumulate(const double *X, const float *Y, double *Sums,
                           float *Small, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    cuda::atomic_ref<double, cuda::thread_scope_device> Squares(Sums[0]);
    Squares.fetch_add(X[I] * X[I], cuda::memory_order_relaxed);
    cuda::std::atomic_ref<double> Linear(Sums[1]);
#ifdef SEQ_CST
    Linear.fetch_add(3 * X[I]);
#else
    Linear.fetch_add(3 * X[I], cuda::std::memory_order_relaxed);
#endif
    cuda::atomic_ref<float, cuda::thread_scope_device> Slot(Small[I % 4]);
    Slot.fetch_add(Y[I] * (float)X[I], cuda::memory_order_relaxed);
  }
}

// Sums[0] * Sums[1] + sum_k (k + 1) Small[k].
__global__ void combine(const double *Sums, const float *Small, double *Out) {
  if (threadIdx.x == 0) {
    double R = Sums[0] * Sums[1];
    for (int K = 0; K < 4; ++K)
      R += (K + 1) * (double)Small[K];
    *Out = R;
  }
}

double loss(const double *X, const float *Y, int N) {
  double *DX, *DSums, *DOut;
  float *DY, *DSmall;
  CUDA_CHECK(cudaMalloc(&DX, N * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&DY, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&DSums, 2 * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&DSmall, 4 * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&DOut, sizeof(double)));
  CUDA_CHECK(cudaMemcpy(DX, X, N * sizeof(double), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(DY, Y, N * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(DSums, 0, 2 * sizeof(double)));
  CUDA_CHECK(cudaMemset(DSmall, 0, 4 * sizeof(float)));
  accumulate<<<(N + 31) / 32, 32>>>(DX, DY, DSums, DSmall, N);
  combine<<<1, 32>>>(DSums, DSmall, DOut);
  double R;
  CUDA_CHECK(cudaMemcpy(&R, DOut, sizeof R, cudaMemcpyDeviceToHost));
  cudaFree(DX), cudaFree(DY), cudaFree(DSums), cudaFree(DSmall);
  cudaFree(DOut);
  return R;
}

int main() {
  constexpr int N = 70;
  static double X[N], G[N], T[N];
  static float Y[N];
  for (int I = 0; I < N; ++I) {
    X[I] = 0.05 * I - 1.2;
    Y[I] = 0.5f + 0.01f * I;
    T[I] = std::cos(I);
  }
  __enzyme_autodiff((void *)loss, enzyme_dup, X, G, enzyme_const, Y,
                    enzyme_const, N);
  double Squares = 0, Linear = 0;
  for (int I = 0; I < N; ++I)
    Squares += X[I] * X[I], Linear += 3 * X[I];
  bool Ok = true;
  double Dot = 0;
  for (int I = 0; I < N; ++I) {
    double Want = 2 * X[I] * Linear + 3 * Squares + (I % 4 + 1) * (double)Y[I];
    Ok &= std::fabs(G[I] - Want) < 1e-5 * (1 + std::fabs(Want));
    Dot += Want * T[I];
  }
  check("gradient through atomic_ref fetch_add", Ok);
  checkClose("tangent",
             __enzyme_fwddiff((void *)loss, enzyme_dup, X, T, enzyme_const, Y,
                              enzyme_const, N),
             Dot, 1e-5);
  return finish();
}
