// Loads through the read-only cache (`__ldg`) in kernels that differentiated
// host code launches: of doubles, of floats, of a float2 and of the int
// indices of a gather. Before, the derivative kernels were an error of the
// device compilation ("no derivative rule for the intrinsic
// 'llvm.nvvm.ldg.global.f.f64.p0'"). Now the prepared kernel loads global
// memory that it does not write (as LLVM 20 upgrades the intrinsics), which
// the generators differentiate like any load and the backend still selects
// as ld.global.nc. The kernel reads its parameters through a copy of the
// host object (`this`) in device memory, which holds device pointers beside
// a double and an int. Analytic gradients at -O0 and -O2; forward mode
// against them.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// RUN: %clangxx_enzyme -fenzyme -O2 --cuda-device-only -S %s -o - | FileCheck %s --check-prefix=PTX
// CHECK-NOT: FAIL
// CHECK: all checks passed
// PTX-LABEL: .entry _enzyme_kernel_augmented__Z7predictPK5Model(
// PTX: ld.global.nc.f64
// PTX-LABEL: .entry _enzyme_kernel_tangent__Z7predictPK5Model(
// PTX: ld.global.nc.f64
#include "../Inputs/check.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const, enzyme_out;

struct Model;
__global__ void predict(const Model *M);

struct Model {
  const double *In;
  const float *W;
  const float2 *Pairs;
  const int *Gather;
  double *Out;
  double Bias;
  int N;
  void run() {
    Model *D;
    CUDA_CHECK(cudaMalloc(&D, sizeof(Model)));
    CUDA_CHECK(cudaMemcpy(D, this, sizeof(Model), cudaMemcpyHostToDevice));
    predict<<<(N + 31) / 32, 32>>>(D);
    CUDA_CHECK(cudaFree(D));
  }
};

// Out += sum_i (x_{g(i)} w_i + p_i.x p_i.y + bias)^2.
__global__ void predict(const Model *M) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < M->N) {
    float2 P = __ldg(&M->Pairs[I]);
    double V = __ldg(&M->In[__ldg(&M->Gather[I])]) * (double)__ldg(&M->W[I]) +
               (double)(P.x * P.y) + M->Bias;
    atomicAdd(M->Out, V * V);
  }
}

template <class T> static T *toDevice(const T *Host, int N) {
  T *D;
  CUDA_CHECK(cudaMalloc(&D, N * sizeof(T)));
  CUDA_CHECK(cudaMemcpy(D, Host, N * sizeof(T), cudaMemcpyHostToDevice));
  return D;
}

double loss(const double *X, const float *W, const float2 *Pairs,
            const int *Gather, double Bias, int N) {
  Model M;
  M.In = toDevice(X, N);
  M.W = toDevice(W, N);
  M.Pairs = toDevice(Pairs, N);
  M.Gather = toDevice(Gather, N);
  M.Bias = Bias;
  M.N = N;
  CUDA_CHECK(cudaMalloc(&M.Out, sizeof(double)));
  CUDA_CHECK(cudaMemset(M.Out, 0, sizeof(double)));
  M.run();
  double R;
  CUDA_CHECK(cudaMemcpy(&R, M.Out, sizeof R, cudaMemcpyDeviceToHost));
  cudaFree(M.Out);
  cudaFree((void *)M.Gather);
  cudaFree((void *)M.Pairs);
  cudaFree((void *)M.W);
  cudaFree((void *)M.In);
  return R;
}

int main() {
  constexpr int N = 90;
  static double X[N], G[N], T[N];
  static float W[N], GW[N];
  static float2 Pairs[N], GPairs[N];
  static int Gather[N];
  for (int I = 0; I < N; ++I) {
    X[I] = 0.02 * I - 0.7, T[I] = std::sin(I);
    W[I] = 0.5f + 0.01f * I;
    Pairs[I] = make_float2(0.25f + 0.01f * I, 1.0f - 0.005f * I);
    Gather[I] = (7 * I) % N;
  }
  double B = 0.3;
  double GB = __enzyme_autodiff((void *)loss, enzyme_dup, X, G, enzyme_dup, W,
                                GW, enzyme_dup, Pairs, GPairs, enzyme_const,
                                Gather, enzyme_out, B, enzyme_const, N);
  bool OkX = true, OkW = true, OkP = true;
  double WantB = 0, Dot = 0;
  static double WantX[N];
  for (int I = 0; I < N; ++I) {
    double Pxy = (double)(Pairs[I].x * Pairs[I].y);
    double V = X[Gather[I]] * (double)W[I] + Pxy + B;
    WantX[Gather[I]] += 2 * V * W[I];
    OkW &= std::fabs(GW[I] - 2 * V * X[Gather[I]]) < 1e-5 * (1 + std::fabs(V));
    OkP &= std::fabs(GPairs[I].x - 2 * V * Pairs[I].y) < 1e-5 * (1 + std::fabs(V)) &&
           std::fabs(GPairs[I].y - 2 * V * Pairs[I].x) < 1e-5 * (1 + std::fabs(V));
    WantB += 2 * V;
  }
  for (int I = 0; I < N; ++I) {
    OkX &= std::fabs(G[I] - WantX[I]) < 1e-9 * (1 + std::fabs(WantX[I]));
    Dot += G[I] * T[I];
  }
  check("gradient of the doubles read with __ldg", OkX);
  check("gradient of the floats read with __ldg", OkW);
  check("gradient of the float2s read with __ldg", OkP);
  checkClose("gradient of the bias", GB, WantB, 1e-9);
  checkClose("tangent",
             __enzyme_fwddiff((void *)loss, enzyme_dup, X, T, enzyme_const, W,
                              enzyme_const, Pairs, enzyme_const, Gather,
                              enzyme_const, B, enzyme_const, N),
             Dot, 1e-9);
  return finish();
}
