// Forward mode of host code that launches kernels (docs/cuda.md): with
// nothing but __enzyme_fwddiff on the host, each launched kernel runs as its
// tangent kernel, which computes the primal and the tangents together. A 2D
// launch of a kernel with a loop and a by-value double, launches written
// with cudaLaunchKernel and a by-value float, and host code that allocates,
// clears, copies and frees device memory itself (cudaMalloc, cudaMemcpy in
// every direction, cudaMemsetAsync, cudaMemcpyAsync, cudaFree), including a
// copy from host memory without a shadow. Checked against central finite
// differences and against reverse mode, at -O0 and -O2.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// A pointer whose tangent the kernel needs, passed without a shadow, stops
// the program with a message rather than reading through null.
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -DCONSTANT_INPUT %s -o %t.const
// RUN: not --crash %t.const 2>&1 | FileCheck %s --check-prefix=NOSHADOW
// CHECK-NOT: FAIL
// CHECK: all checks passed
// NOSHADOW: enzyme: the derivative of the launch of kernel 'waves(double const*, int const*, double*, double, int, int)' needs the shadow of its parameter 1, but the differentiated host code has none for it
#include "../Inputs/check.h"

__global__ void waves(const double *X, const int *Perm, double *Y, double A,
                      int N, int Terms) {
  int Block = blockIdx.y * gridDim.x + blockIdx.x;
  int I =
      Block * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  double Acc = 0;
  for (int K = 1; K <= Terms; ++K)
    Acc = 0.5 * Acc * Acc + sin(A * X[Perm[I]] * K) / K;
  Y[I] = Acc;
}

__global__ void axpy(float Alpha, const float *U, float *V, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    V[I] += Alpha * U[I] * U[I];
}

__global__ void square(const double *X, double *Y, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Y[I] += X[I] * X[I];
}

__global__ void shift(const double *Y, const double *Offsets, double *Z,
                      double C, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Z[I] = C * sin(Y[(I + 1) % N]) + Offsets[I];
}

void model(const double *X, const int *Perm, double *Y, double A, int N,
           int Terms) {
  dim3 Grid(2, 3), Block(8, 4);
  waves<<<Grid, Block>>>(X, Perm, Y, A, N, Terms);
}

void update(float Alpha, const float *U, float *V, int N) {
  axpy<<<(N + 63) / 64, 64>>>(Alpha, U, V, N);
  void *Args[] = {&Alpha, &U, &V, &N};
  if (cudaLaunchKernel((void *)axpy, dim3((N + 31) / 32), dim3(32), Args, 0,
                       nullptr) != cudaSuccess)
    std::printf("FAIL cudaLaunchKernel\n");
}

// sum_i sin(C sin(X[i+1]^2) + Offsets[i]), the intermediates in device
// memory; Offsets are host constants copied in (a copy whose source has no
// shadow clears the destination's tangents).
double loss(const double *HostX, const double *HostOffsets, double C, int N) {
  size_t Bytes = N * sizeof(double);
  double *X, *Y, *Offsets, *Z;
  cudaMalloc(&X, Bytes);
  cudaMalloc(&Y, Bytes);
  cudaMalloc(&Offsets, Bytes);
  cudaMalloc(&Z, Bytes);
  cudaMemcpy(X, HostX, Bytes, cudaMemcpyHostToDevice);
  // Offsets holds X's values (and tangents) until the constants replace
  // them.
  cudaMemcpy(Offsets, X, Bytes, cudaMemcpyDeviceToDevice);
  cudaMemcpy(Offsets, HostOffsets, Bytes, cudaMemcpyHostToDevice);
  cudaMemsetAsync(Y, 0, Bytes, 0);
  square<<<(N + 31) / 32, 32>>>(X, Y, N);
  shift<<<(N + 63) / 64, 64>>>(Y, Offsets, Z, C, N);
  double *HostZ = new double[N];
  cudaMemcpyAsync(HostZ, Z, Bytes, cudaMemcpyDeviceToHost, 0);
  cudaStreamSynchronize(0);
  double Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += sin(HostZ[I]);
  delete[] HostZ;
  cudaFree(X);
  cudaFree(Y);
  cudaFree(Offsets);
  cudaFree(Z);
  return Sum;
}

extern int enzyme_dup, enzyme_const, enzyme_out;
void __enzyme_fwddiff(void *, ...);
double __enzyme_fwddiff_d(void *, ...) __asm__("__enzyme_fwddiff");
double __enzyme_autodiff(void *, ...);

const int N = 150, Terms = 4;

int main() {
  double *X, *DX, *Y, *DY, *Y2;
  int *Perm;
  float *U, *DU, *V, *DV, *V2;
  CUDA_CHECK(cudaMallocManaged(&X, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DX, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Y, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DY, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Y2, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Perm, N * sizeof(int)));
  CUDA_CHECK(cudaMallocManaged(&U, N * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&DU, N * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&V, N * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&DV, N * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&V2, N * sizeof(float)));
  for (int I = 0; I < N; ++I) {
    X[I] = 0.3 + 0.01 * I;
    DX[I] = std::cos(0.1 * I);
    Perm[I] = (I * 7) % N;
    DY[I] = 0;
    U[I] = 0.5f + 0.002f * I;
    DU[I] = 0.25f;
    V[I] = 1;
    DV[I] = 0.5f;
  }
  const double A = 0.7, DA = -0.4;

#ifdef CONSTANT_INPUT
  __enzyme_fwddiff((void *)model, enzyme_const, X, enzyme_const, Perm,
                   enzyme_dup, Y, DY, enzyme_dup, A, DA, N, Terms);
  CUDA_CHECK(cudaDeviceSynchronize());
  return 0;
#endif

  // The tangent of Y along (DX, DA), against central differences along the
  // same direction.
  __enzyme_fwddiff((void *)model, enzyme_dup, X, DX, enzyme_const, Perm,
                   enzyme_dup, Y, DY, enzyme_dup, A, DA, N, Terms);
  CUDA_CHECK(cudaDeviceSynchronize());
  const double H = 1e-6;
  double *Saved = new double[N];
  for (int I = 0; I < N; ++I)
    Saved[I] = X[I];
  for (int I = 0; I < N; ++I)
    X[I] = Saved[I] + H * DX[I];
  model(X, Perm, Y2, A + H * DA, N, Terms);
  CUDA_CHECK(cudaDeviceSynchronize());
  double *Up = new double[N];
  for (int I = 0; I < N; ++I)
    Up[I] = Y2[I];
  for (int I = 0; I < N; ++I)
    X[I] = Saved[I] - H * DX[I];
  model(X, Perm, Y2, A - H * DA, N, Terms);
  CUDA_CHECK(cudaDeviceSynchronize());
  for (int I = 0; I < N; ++I)
    X[I] = Saved[I];
  bool YOk = true;
  for (int I = 0; I < N; ++I) {
    double Expected = (Up[I] - Y2[I]) / (2 * H);
    if (!(std::fabs(DY[I] - Expected) <= 1e-6 * (1 + std::fabs(Expected)))) {
      std::printf("d Y[%d]: got %.17g, expected %.17g\n", I, DY[I], Expected);
      YOk = false;
    }
  }
  check("tangent of the 2D launch along (X, A)", YOk);

  // Forward against reverse: W . dY = (reverse gradient) . (DX, DA).
  double *W, *RX;
  CUDA_CHECK(cudaMallocManaged(&W, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&RX, N * sizeof(double)));
  double WDotDY = 0;
  for (int I = 0; I < N; ++I) {
    W[I] = 1.0 + 0.001 * I;
    WDotDY += W[I] * DY[I];
    RX[I] = 0;
  }
  double RA =
      __enzyme_autodiff((void *)model, enzyme_dup, X, RX, enzyme_const, Perm,
                        enzyme_dup, Y, W, enzyme_out, A, N, Terms);
  CUDA_CHECK(cudaDeviceSynchronize());
  double GradDotDir = RA * DA;
  for (int I = 0; I < N; ++I)
    GradDotDir += RX[I] * DX[I];
  checkClose("forward agrees with reverse", WDotDY, GradDotDir, 1e-10);

  // V += 2 Alpha U^2 (two launches): dV = DV + 2 DAlpha U^2 + 4 Alpha U DU.
  const float Alpha = 1.5f, DAlpha = 0.75f;
  __enzyme_fwddiff((void *)update, enzyme_dup, Alpha, DAlpha, enzyme_dup, U, DU,
                   enzyme_dup, V, DV, N);
  CUDA_CHECK(cudaDeviceSynchronize());
  bool VOk = true, UOk = true;
  for (int I = 0; I < N; ++I) {
    double Expected =
        0.5 + 2.0 * DAlpha * U[I] * U[I] + 4.0 * Alpha * U[I] * DU[I];
    VOk &= std::fabs(DV[I] - Expected) <= 1e-5 * (1 + Expected);
    UOk &= DU[I] == 0.25f;
  }
  check("tangent of two launches, one through cudaLaunchKernel", VOk);
  check("the input's tangent is unchanged", UOk);

  // Device memory managed by the differentiated code.
  double *HostX = new double[N], *HostDX = new double[N];
  double *Offsets = new double[N];
  for (int I = 0; I < N; ++I) {
    HostX[I] = 0.2 + 0.004 * I;
    HostDX[I] = std::sin(0.3 * I);
    Offsets[I] = 0.01 * I;
  }
  const double C = 0.9, DC = 0.6;
  double Tangent =
      __enzyme_fwddiff_d((void *)loss, enzyme_dup, HostX, HostDX, enzyme_const,
                         Offsets, enzyme_dup, C, DC, N);
  for (int I = 0; I < N; ++I)
    Saved[I] = HostX[I];
  for (int I = 0; I < N; ++I)
    HostX[I] = Saved[I] + H * HostDX[I];
  double LossUp = loss(HostX, Offsets, C + H * DC, N);
  for (int I = 0; I < N; ++I)
    HostX[I] = Saved[I] - H * HostDX[I];
  double LossDown = loss(HostX, Offsets, C - H * DC, N);
  for (int I = 0; I < N; ++I)
    HostX[I] = Saved[I];
  checkClose("tangent through cudaMalloc, cudaMemcpy, cudaMemsetAsync", Tangent,
             (LossUp - LossDown) / (2 * H), 1e-6);
  return finish();
}
