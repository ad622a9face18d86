// Straight-line inline PTX is read as the IR it computes (Core/
// PtxStatements.h), by the engine and by the emulation alike: register
// declarations, moves that take a double apart into its 32-bit halves and
// join them, `shfl.sync` with its predicate (whether the source lane was in
// range), arithmetic (mul, fma, neg, max, sub, add) and selp, guarded by a
// predicate. Written here as CUB writes the steps of its warp sums; before,
// each statement was an error ("inline assembly whose result ... carries a
// derivative"). Reverse mode against analytic gradients, forward mode
// against reverse mode, -O0 and -O2; the IR steps check that the gradient
// has no assembly left and sends adjoints back up the warp.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// RUN: %clangxx_enzyme -fenzyme -O2 -mllvm -enzyme-inline-device-derivatives=false --cuda-device-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// CHECK-NOT: FAIL
// CHECK: all checks passed
// IR-LABEL: define internal void @_Z5modelPKdPd.grad(
// IR-NOT:     asm
// IR:         call {{.*}}@llvm.nvvm.shfl.sync.up
// IR-NOT:     asm
// IR:       ret void
#include "../Inputs/check.h"

extern __device__ void __enzyme_autodiff(void *, ...);
extern __device__ void __enzyme_fwddiff(void *, ...);
__device__ int enzyme_dup, enzyme_const;

// V plus the value of the lane Offset above, where there is one.
__device__ double sumStep(double V, int Offset) {
  double Out;
  asm volatile("{\n"
               "  .reg .u32 lo;\n"
               "  .reg .u32 hi;\n"
               "  .reg .pred p;\n"
               "  .reg .f64 r0;\n"
               "  mov.b64 %0, %1;\n"
               "  mov.b64 {lo, hi}, %1;\n"
               "  shfl.sync.down.b32 lo|p, lo, %2, 31, 0xffffffff;\n"
               "  shfl.sync.down.b32 hi|p, hi, %2, 31, 0xffffffff;\n"
               "  mov.b64 r0, {lo, hi};\n"
               "  @p add.f64 %0, %0, r0;\n"
               "}"
               : "=d"(Out)
               : "d"(V), "r"(Offset));
  return Out;
}

// max(-(A * B * A + B), B) - A, the arithmetic in PTX.
__device__ double arithmetic(double A, double B) {
  double Out;
  asm("{\n"
      "  .reg .f64 t;\n"
      "  mul.f64 t, %1, %2;\n"
      "  fma.rn.f64 t, t, %1, %2;\n"
      "  neg.f64 t, t;\n"
      "  max.f64 t, t, %2;\n"
      "  sub.f64 %0, t, %1;\n"
      "}"
      : "=d"(Out)
      : "d"(A), "d"(B));
  return Out;
}

// A if the lane is even, else B, chosen by selp on a shuffle's predicate
// (lanes 0..15 read lane + 16: in range).
__device__ double chooseLow(double A, double B) {
  double Out;
  asm("{\n"
      "  .reg .pred p;\n"
      "  .reg .u32 ignored;\n"
      "  shfl.sync.down.b32 ignored|p, 0, 16, 31, 0xffffffff;\n"
      "  selp.f64 %0, %1, %2, p;\n"
      "}"
      : "=d"(Out)
      : "d"(A), "d"(B));
  return Out;
}

constexpr int N = 64;

// Y[i] = (warp sum of X^2 on lane 0) + arithmetic(X[i], 0.5) +
// chooseLow(X[i]^3, 2 X[i]).
__device__ void model(const double *X, double *Y) {
  int I = blockIdx.x * blockDim.x + threadIdx.x, Lane = threadIdx.x % 32;
  double S = X[I] * X[I];
  for (int Offset = 1; Offset < 32; Offset *= 2)
    S = sumStep(S, Offset);
  Y[I] = (Lane == 0 ? S : 0) + arithmetic(X[I], 0.5) +
         chooseLow(X[I] * X[I] * X[I], 2 * X[I]);
}

__global__ void gradient(const double *X, double *DX, double *Y, double *DY) {
  __enzyme_autodiff((void *)model, enzyme_dup, X, DX, enzyme_dup, Y, DY);
}

__global__ void tangent(const double *X, const double *TX, double *Y,
                        double *TY) {
  __enzyme_fwddiff((void *)model, enzyme_dup, X, TX, enzyme_dup, Y, TY);
}

int main() {
  double *X, *DX, *TX, *Y, *DY, *TY;
  for (double **P : {&X, &DX, &TX, &Y, &DY, &TY})
    CUDA_CHECK(cudaMallocManaged(P, N * sizeof(double)));
  double Seed[N]; // the reverse pass consumes DY
  for (int I = 0; I < N; ++I) {
    X[I] = std::sin(0.9 * I) + 0.1;
    DX[I] = 0;
    DY[I] = Seed[I] = 1 + I % 3;
    TX[I] = std::cos(I);
  }
  gradient<<<N / 32, 32>>>(X, DX, Y, DY);
  CUDA_CHECK(cudaDeviceSynchronize());
  bool PrimalOk = true, ReverseOk = true;
  for (int I = 0; I < N; ++I) {
    int Lane = I % 32, Warp = I - Lane;
    double A = X[I], B = 0.5;
    double Inner = -(A * B * A + B);
    double Sum = 0;
    for (int K = 0; K < 32; ++K)
      Sum += X[Warp + K] * X[Warp + K];
    double Expected = (Lane == 0 ? Sum : 0) + (Inner > B ? Inner : B) - A +
                      (Lane < 16 ? A * A * A : 2 * A);
    PrimalOk &= std::fabs(Y[I] - Expected) < 1e-12 * (1 + std::fabs(Expected));
    // d/dA: the warp sum's 2 A times lane 0's seed, the max's branch, -1,
    // and the chosen branch.
    double D = 2 * A * Seed[Warp] +
               Seed[I] * ((Inner > B ? -2 * A * B : 0) - 1 +
                          (Lane < 16 ? 3 * A * A : 2));
    ReverseOk &= std::fabs(DX[I] - D) < 1e-12 * (1 + std::fabs(D));
  }
  check("primal", PrimalOk);
  check("reverse mode against analytic gradients", ReverseOk);
  tangent<<<N / 32, 32>>>(X, TX, Y, TY);
  CUDA_CHECK(cudaDeviceSynchronize());
  double Dot = 0, Reverse = 0;
  for (int I = 0; I < N; ++I) {
    Dot += Seed[I] * TY[I];
    Reverse += DX[I] * TX[I];
  }
  checkClose("forward mode agrees with reverse mode", Dot, Reverse, 1e-12);
  return finish();
}
