// Host code that launches kernels, differentiated with no hand-written pair
// (docs/cuda.md): a 2D launch whose kernel records a value on each trip of a
// loop (its tape grows on the device heap), a 1D launch of a kernel with a
// fixed-size tape, by-value float and double parameters whose adjoints are
// summed over all threads, integer parameters and an index buffer without a
// shadow, and launches written with cudaLaunchKernel. Checked against
// central finite differences at -O0 and -O2.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -mllvm -enzyme-warp-aggregated-atomics=true %s -o %t.warps && %t.warps | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// A pointer whose shadow the kernel's derivative needs, passed without one,
// stops the program with a message rather than writing through null.
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -DCONSTANT_INPUT %s -o %t.const
// RUN: not --crash %t.const 2>&1 | FileCheck %s --check-prefix=NOSHADOW
// CHECK-NOT: FAIL
// CHECK: all checks passed
// NOSHADOW: enzyme: the derivative of the launch of kernel 'waves(double const*, int const*, double*, double, int, int)' needs the shadow of its parameter 1, but the differentiated host code has none for it
#include "../Inputs/check.h"

__global__ void waves(const double *X, const int *Perm, double *Y, double A,
                      int N, int Terms) {
  int Block = blockIdx.y * gridDim.x + blockIdx.x;
  int I = Block * blockDim.x * blockDim.y + threadIdx.y * blockDim.x +
          threadIdx.x;
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

void model(const double *X, const int *Perm, double *Y, double A, int N,
           int Terms) {
  dim3 Grid(2, 3), Block(8, 4);
  waves<<<Grid, Block>>>(X, Perm, Y, A, N, Terms);
}

// The second launch through the runtime API, as code written without the
// triple-angle syntax launches.
void update(float Alpha, const float *U, float *V, int N) {
  axpy<<<(N + 63) / 64, 64>>>(Alpha, U, V, N);
  void *Args[] = {&Alpha, &U, &V, &N};
  if (cudaLaunchKernel((void *)axpy, dim3((N + 31) / 32), dim3(32), Args, 0,
                       nullptr) != cudaSuccess)
    std::printf("FAIL cudaLaunchKernel\n");
}

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
float __enzyme_autodiff_f(void *, ...) __asm__("__enzyme_autodiff");

const int N = 150, Terms = 4;

static double weightedModel(const double *X, const int *Perm, double *Y,
                            const double *W, double A) {
  model(X, Perm, Y, A, N, Terms);
  CUDA_CHECK(cudaDeviceSynchronize());
  double Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += W[I] * Y[I];
  return Sum;
}

int main() {
  double *X, *DX, *Y, *DY, *W;
  int *Perm;
  float *U, *DU, *V, *DV;
  CUDA_CHECK(cudaMallocManaged(&X, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DX, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Y, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DY, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&W, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Perm, N * sizeof(int)));
  CUDA_CHECK(cudaMallocManaged(&U, N * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&DU, N * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&V, N * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&DV, N * sizeof(float)));
  for (int I = 0; I < N; ++I) {
    X[I] = 0.3 + 0.01 * I;
    Perm[I] = (I * 7) % N;
    W[I] = 1.0 + 0.001 * I;
    DX[I] = 0;
    DY[I] = W[I];
    U[I] = 0.5f + 0.002f * I;
    V[I] = 1;
    DU[I] = 0;
    DV[I] = 1;
  }
  const double A = 0.7;

#ifdef CONSTANT_INPUT
  __enzyme_autodiff((void *)model, enzyme_const, X, enzyme_const, Perm,
                    enzyme_dup, Y, DY, enzyme_out, A, N, Terms);
  CUDA_CHECK(cudaDeviceSynchronize());
  return 0;
#endif

  double DA = __enzyme_autodiff((void *)model, enzyme_dup, X, DX,
                                enzyme_const, Perm, enzyme_dup, Y, DY,
                                enzyme_out, A, N, Terms);
  CUDA_CHECK(cudaDeviceSynchronize());
  const double H = 1e-6;
  double Up = weightedModel(X, Perm, Y, W, A + H);
  double Down = weightedModel(X, Perm, Y, W, A - H);
  checkClose("d/dA of the 2D launch", DA, (Up - Down) / (2 * H), 1e-6);
  bool XOk = true;
  for (int J : {0, 7, 64, 149}) {
    double Saved = X[J];
    X[J] = Saved + H;
    Up = weightedModel(X, Perm, Y, W, A);
    X[J] = Saved - H;
    Down = weightedModel(X, Perm, Y, W, A);
    X[J] = Saved;
    double Expected = (Up - Down) / (2 * H);
    if (!(std::fabs(DX[J] - Expected) <= 1e-6 * (1 + std::fabs(Expected)))) {
      std::printf("d/dX[%d]: got %.17g, expected %.17g\n", J, DX[J], Expected);
      XOk = false;
    }
  }
  check("d/dX of the 2D launch (through the index buffer)", XOk);

  // V += 2 Alpha U^2, so d/dAlpha = sum 2 U^2 and d/dU = 4 Alpha U (seeds 1).
  const float Alpha = 1.5f;
  float DAlpha = __enzyme_autodiff_f((void *)update, enzyme_out, Alpha,
                                     enzyme_dup, U, DU, enzyme_dup, V, DV, N);
  CUDA_CHECK(cudaDeviceSynchronize());
  double ExpectedAlpha = 0;
  bool UOk = true, VOk = true;
  for (int I = 0; I < N; ++I) {
    ExpectedAlpha += 2.0 * U[I] * U[I];
    UOk &= std::fabs(DU[I] - 4.0 * Alpha * U[I]) <= 1e-4 * (1 + 4 * U[I]);
    VOk &= DV[I] == 1;
  }
  checkClose("d/dAlpha of two launches", DAlpha, ExpectedAlpha, 1e-5);
  check("d/dU of two launches", UOk);
  check("d/dV passes through", VOk);
  return finish();
}
