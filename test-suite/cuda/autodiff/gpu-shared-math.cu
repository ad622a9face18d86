// A GPU reverse pass recomputes the primal's math next to the math of its
// derivatives, and in derivatives that math shares its work:
//  - cos(x)'s derivative calls sin(x), which the primal computes too: one
//    call answers for both, and the sin and cos of one value are one
//    libdevice sincos (a single argument reduction, the slow path's call
//    appears once in the gradient);
//  - a quotient's divisor gets -(D / b) * (a / b): the division D / b of
//    the dividend's adjoint and the quotient, which the reverse pass
//    recomputes anyway, instead of a second division by b * b.
// The derivative is inlined into the kernel that asks for it, where the
// kernel's pointer arguments point to global memory: its adjoint additions
// need no run-time test of their address space.
// The gradients are checked against central differences under emulation
// and, where a GPU is present, on it.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -O2 --cuda-gpu-arch=sm_90 --cuda-device-only -S -emit-llvm %s -o %t.ll
// RUN: sed -n '/^define .*@_Z4wavePKdd(/,/^}/p' %t.ll > %t.primal.ll
// RUN: sed -n '/^define .*@_Z9gradientsPKdPd(/,/^}/p' %t.ll > %t.kernel.ll
// RUN: grep -c 'call .*@__internal_trig_reduction_slowpathd' %t.primal.ll | FileCheck %s --check-prefix=TWO
// RUN: grep -c 'call .*@__internal_trig_reduction_slowpathd' %t.kernel.ll | FileCheck %s --check-prefix=ONE
// RUN: grep -c '= fdiv' %t.kernel.ll | FileCheck %s --check-prefix=FOUR
// RUN: sed -n '/^define .*@_Z10gradientsfPKfPf(/,/^}/p' %t.ll | grep -c '__cudart_i2opi_f' | FileCheck %s --check-prefix=ONE
// RUN: FileCheck %s --check-prefix=KERNEL < %t.kernel.ll
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s --check-prefix=OUT
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s --check-prefix=OUT
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s --check-prefix=OUT %}
// The primal stays as clang compiles it (cos and sin of one phase reduce
// it twice); its gradient reduces the phase once, in double and in float
// (sinf and cosf become one sincosf: the float reduction's table is read in
// one place). The gradient divides four
// times: each quotient (recomputed) and the adjoint of each dividend.
// TWO: {{^}}2{{$}}
// ONE: {{^}}1{{$}}
// FOUR: {{^}}4{{$}}
// KERNEL-NOT: call void @_Z4wavePKdd.grad
// KERNEL-NOT: isspacep
// KERNEL:     atomicrmw fadd ptr addrspace(1)
// KERNEL-NOT: isspacep
// KERNEL:     ret void
// OUT-NOT: FAIL
// OUT: all checks passed
#include "../Inputs/check.h"

extern __device__ void __enzyme_autodiff(void *, ...);
__device__ int enzyme_dup, enzyme_const;

constexpr int Threads = 64, Params = 3;

__host__ __device__ double wave(const double *P, double X) {
  double A = P[0], B = P[1], C = P[2];
  double Phase = A * X + C;
  double Damped = B / (A + X * X);
  return Damped * cos(Phase) + sin(Phase) * A / B;
}

__host__ __device__ float wavef(const float *P, float X) {
  float Phase = P[0] * X + P[2];
  return P[1] * cosf(Phase) + sinf(Phase) * P[0];
}

__global__ void gradientsf(const float *P, float *DP) {
  int T = threadIdx.x;
  __enzyme_autodiff((void *)wavef, enzyme_dup, P + T * Params,
                    DP + T * Params, enzyme_const, 0.1f + 0.05f * T);
}

__global__ void gradients(const double *P, double *DP) {
  int T = threadIdx.x;
  double X = 0.1 + 0.05 * T;
  __enzyme_autodiff((void *)wave, enzyme_dup, P + T * Params,
                    DP + T * Params, enzyme_const, X);
}

int main() {
  double *P, *DP;
  CUDA_CHECK(cudaMallocManaged(&P, Threads * Params * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DP, Threads * Params * sizeof(double)));
  for (int I = 0; I < Threads * Params; ++I) {
    // Phases up to about 60: reductions by several multiples of pi / 2.
    P[I] = I % 3 == 0 ? 1.5 + 0.25 * I : I % 3 == 1 ? 0.7 + 0.01 * I : -0.3;
    DP[I] = 0;
  }
  gradients<<<1, Threads>>>(P, DP);
  CUDA_CHECK(cudaDeviceSynchronize());
  bool Ok = true;
  for (int T = 0; T < Threads; ++T) {
    double X = 0.1 + 0.05 * T, *Row = P + T * Params;
    for (int K = 0; K < Params; ++K) {
      double Saved = Row[K], H = 1e-6 * (1 + std::fabs(Saved));
      Row[K] = Saved + H;
      double Plus = wave(Row, X);
      Row[K] = Saved - H;
      double Minus = wave(Row, X);
      Row[K] = Saved;
      double Expected = (Plus - Minus) / (2 * H);
      double Got = DP[T * Params + K];
      if (!(std::fabs(Got - Expected) <= 1e-6 * (1 + std::fabs(Expected)))) {
        std::printf("FAIL thread %d parameter %d: %.17g, expected %.17g\n", T,
                    K, Got, Expected);
        Ok = false;
      }
    }
  }
  check("sin, cos and quotients: every parameter's adjoint", Ok);

  float *PF, *DPF;
  CUDA_CHECK(cudaMallocManaged(&PF, Threads * Params * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&DPF, Threads * Params * sizeof(float)));
  for (int I = 0; I < Threads * Params; ++I) {
    PF[I] = float(P[I]);
    DPF[I] = 0;
  }
  gradientsf<<<1, Threads>>>(PF, DPF);
  CUDA_CHECK(cudaDeviceSynchronize());
  Ok = true;
  for (int T = 0; T < Threads; ++T) {
    const float *Row = PF + T * Params;
    double X = 0.1f + 0.05f * T, Phase = double(Row[0]) * X + Row[2];
    double S = std::sin(Phase), C = std::cos(Phase);
    double Expected[Params] = {-Row[1] * S * X + C * X * Row[0] + S, C,
                               -Row[1] * S + C * Row[0]};
    for (int K = 0; K < Params; ++K)
      if (!(std::fabs(DPF[T * Params + K] - Expected[K]) <=
          2e-4 * (1 + std::fabs(Expected[K])))) {
        std::printf("FAIL float thread %d parameter %d: %.9g, expected %.9g\n",
                    T, K, DPF[T * Params + K], Expected[K]);
        Ok = false;
      }
  }
  check("sinf and cosf: every parameter's adjoint", Ok);
  return finish();
}
