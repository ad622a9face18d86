// Launches differentiated from host code, in reverse and forward mode, of
// kernels that use what CUDA kernels commonly do: a grid-stride loop with
// a 3D block, a __constant__ table, a per-thread local array, a device
// function, atomicAdd into a __shared__ accumulator, __syncthreads_count,
// integer scratch in dynamic shared memory, and a launch on a stream.
// Every gradient is checked against central finite differences, and each
// tangent against the gradient's projection, at -O0 and -O2.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"

constexpr int N = 300;
__constant__ double Weights[4] = {0.2, 0.5, -0.3, 0.1};

__device__ double smoothStep(double X) { return X * X * (3 - 2 * X); }

// A grid-stride loop over 3D blocks; each element through a local
// polynomial whose coefficients come from the __constant__ table.
__global__ void polynomial(const double *X, double *Y, double Scale, int Len) {
  int Threads = blockDim.x * blockDim.y * blockDim.z * gridDim.x;
  int First = blockIdx.x * blockDim.x * blockDim.y * blockDim.z +
              (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x +
              threadIdx.x;
  for (int I = First; I < Len; I += Threads) {
    double Powers[4];
    Powers[0] = 1;
    for (int K = 1; K < 4; ++K)
      Powers[K] = Powers[K - 1] * X[I];
    double Sum = 0;
    for (int K = 0; K < 4; ++K)
      Sum += Weights[K] * Powers[K];
    Y[I] = Scale * smoothStep(Sum);
  }
}

// Each block sums its elements' squares into a __shared__ accumulator
// with atomicAdd, counts the positive ones with __syncthreads_count, keeps
// the signs in dynamic shared memory (integers, no derivative), and adds
// the count-weighted sum into Out.
__global__ void blockEnergy(const double *Y, double *Out, int Len) {
  __shared__ double Acc;
  extern __shared__ int Signs[];
  int T = threadIdx.x, I = blockIdx.x * blockDim.x + T;
  if (T == 0)
    Acc = 0;
  __syncthreads();
  double V = I < Len ? Y[I] : 0;
  Signs[T] = V > 0;
  atomicAdd(&Acc, V * V);
  int Positive = __syncthreads_count(Signs[T]);
  if (T == 0)
    atomicAdd(Out, Acc * (1 + 0.01 * Positive));
}

void model(const double *X, double *Y, double *Out, double Scale) {
  polynomial<<<3, dim3(4, 4, 2)>>>(X, Y, Scale, N);
  cudaStream_t Stream;
  cudaStreamCreate(&Stream);
  blockEnergy<<<(N + 63) / 64, 64, 64 * sizeof(int), Stream>>>(Y, Out, N);
  cudaStreamSynchronize(Stream);
  cudaStreamDestroy(Stream);
}

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

static double *X, *Y, *Out, *DX, *DY, *DOut;

static double evaluate(double Scale) {
  *Out = 0;
  model(X, Y, Out, Scale);
  CUDA_CHECK(cudaDeviceSynchronize());
  return *Out;
}

int main() {
  CUDA_CHECK(cudaMallocManaged(&X, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Y, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Out, sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DX, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DY, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DOut, sizeof(double)));
  for (int I = 0; I < N; ++I) {
    X[I] = 0.5 + 0.3 * std::sin(0.37 * I);
    DX[I] = 0;
    DY[I] = 0;
  }
  const double Scale = 0.6;
  *Out = 0;
  *DOut = 1;
  double DScale =
      __enzyme_autodiff((void *)model, enzyme_dup, X, DX, enzyme_dup, Y, DY,
                        enzyme_dup, Out, DOut, enzyme_out, Scale);
  CUDA_CHECK(cudaDeviceSynchronize());

  const double H = 1e-6;
  checkClose("d/dScale", DScale,
             (evaluate(Scale + H) - evaluate(Scale - H)) / (2 * H), 1e-6);
  bool XOk = true;
  for (int J : {0, 1, 63, 64, 150, 299}) {
    double Saved = X[J];
    X[J] = Saved + H;
    double Up = evaluate(Scale);
    X[J] = Saved - H;
    double Down = evaluate(Scale);
    X[J] = Saved;
    double Expected = (Up - Down) / (2 * H);
    if (!(std::fabs(DX[J] - Expected) <= 1e-6 * (1 + std::fabs(Expected)))) {
      std::printf("d/dX[%d]: got %.17g, expected %.17g\n", J, DX[J],
                  Expected);
      XOk = false;
    }
  }
  check("d/dX", XOk);

  // Forward mode along (TX, TScale): the gradient's projection.
  double *TX, *TY, *TOut;
  CUDA_CHECK(cudaMallocManaged(&TX, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&TY, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&TOut, sizeof(double)));
  const double TScale = -0.8;
  double Projection = DScale * TScale;
  for (int I = 0; I < N; ++I) {
    TX[I] = std::cos(0.11 * I);
    TY[I] = 0;
    Projection += DX[I] * TX[I];
  }
  *Out = 0;
  *TOut = 0;
  __enzyme_fwddiff((void *)model, enzyme_dup, X, TX, enzyme_dup, Y, TY,
                   enzyme_dup, Out, TOut, enzyme_dup, Scale, TScale);
  CUDA_CHECK(cudaDeviceSynchronize());
  checkClose("forward mode agrees with the gradient", *TOut, Projection, 1e-9);
  return finish();
}
