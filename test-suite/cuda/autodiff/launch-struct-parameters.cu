// Kernels that take structs by value, launched from differentiated host
// code (docs/cuda.md). The host ABI passes each kind differently, and the
// launch's derivatives follow it: a large struct of pointers and numbers
// (byval: its shadow is a struct of the same type holding the pointers'
// shadows, and the adjoints of its doubles go into that shadow), a struct
// of a double and an int (a double and an int in registers), CUDA's float2
// (a <2 x float>), a struct of a pointer and an int (a pointer and an int),
// nested structs and arrays, and a struct of a float and an int that the
// ABI packs into one integer, whose float carries no derivative here.
// Reverse mode against central differences, forward mode against reverse,
// at -O0 and -O2.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// With a derivative through the float packed into an integer, the host
// compilation stops at the launch (the ABI leaves no place for it).
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -DACTIVE_PACKED_FLOAT %s -o %t.packed 2>&1 | FileCheck %s --check-prefix=PACKED
// The derivative kernels take the structs and their shadows by value.
// RUN: %clangxx_enzyme -fenzyme -O2 --cuda-device-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=DEVICE
// CHECK-NOT: FAIL
// CHECK: all checks passed
// PACKED: error: {{.*}}cannot differentiate the call of '__device_stub__scaleRows(Packed, double*, int)': its argument 1 is an integer that carries the bits of a float with a derivative
// DEVICE-DAG: define {{.*}}ptx_kernel void @_enzyme_kernel_augmented__Z5bloom6Params(ptr {{.*}}byval(%struct.Params) align 8 {{.*}}, ptr {{.*}}byval(%struct.Params) align 8 {{.*}}, ptr
// DEVICE-DAG: @_enzyme_kernel_info__Z5bloom6Params = weak_odr addrspace(1) global [4 x i64] [i64 {{[0-9]+}}, i64 1, i64 3, i64 0]
#include "../Inputs/check.h"

// 48 bytes: passed byval. Its doubles' adjoints go into the shadow struct.
struct Params {
  const double *X;
  double *Y;
  int N;
  double Scale;
  struct {
    double Coef[2];
  } Poly;
};

// A double and an int: two registers on the host.
struct Gain {
  double A;
  int Power;
};

// A pointer and an int.
struct View {
  const double *Data;
  int Stride;
};

// A float and an int in one integer register.
struct Packed {
  float Weight;
  int Shift;
};

__global__ void bloom(Params P) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < P.N) {
    double X = P.X[I];
    P.Y[I] = P.Scale * (P.Poly.Coef[0] * X + P.Poly.Coef[1] * X * X);
  }
}

__global__ void amplify(Gain G, double *Y, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    double Factor = 1;
    for (int K = 0; K < G.Power; ++K)
      Factor *= G.A;
    Y[I] *= Factor;
  }
}

__global__ void rotate(float2 W, const double *Y, double *Z, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Z[I] = W.x * Y[I] + W.y * sin(Y[I]);
}

__global__ void gather(View V, double *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] += V.Data[I * V.Stride] * V.Data[I * V.Stride];
}

__global__ void scaleRows(Packed P, double *Z, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Z[I] = P.Weight * Z[I] + (I >> P.Shift);
}

// sum_i Z[i] with Z = wx Y + wy sin(Y) (+ gathers), Y = a^p S (c0 X + c1 X^2).
double loss(const double *HostX, double S, double C0, double C1, double A,
            float Wx, float Wy, float Weight, int N) {
  size_t Bytes = N * sizeof(double);
  double *X, *Y, *Z;
  cudaMalloc(&X, 2 * Bytes);
  cudaMalloc(&Y, Bytes);
  cudaMalloc(&Z, Bytes);
  cudaMemcpy(X, HostX, 2 * Bytes, cudaMemcpyHostToDevice);
  Params P{X, Y, N, S, {{C0, C1}}};
  bloom<<<(N + 31) / 32, 32>>>(P);
  amplify<<<(N + 63) / 64, 64>>>(Gain{A, 3}, Y, N);
  rotate<<<(N + 31) / 32, 32>>>(make_float2(Wx, Wy), Y, Z, N);
  gather<<<(N + 31) / 32, 32>>>(View{X, 2}, Z, N);
#ifdef ACTIVE_PACKED_FLOAT
  scaleRows<<<(N + 31) / 32, 32>>>(Packed{Weight, 4}, Z, N);
#else
  scaleRows<<<(N + 31) / 32, 32>>>(Packed{0.5f, 4}, Z, N);
#endif
  double *HostZ = new double[N];
  cudaMemcpy(HostZ, Z, Bytes, cudaMemcpyDeviceToHost);
  double Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += HostZ[I];
  delete[] HostZ;
  cudaFree(X);
  cudaFree(Y);
  cudaFree(Z);
  return Sum;
}

extern int enzyme_dup, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

struct Gradient {
  double S, C0, C1, A;
  float Wx, Wy, Weight;
};
Gradient __enzyme_autodiff_g(void *, ...) __asm__("__enzyme_autodiff");

const int N = 100;

int main() {
  double HostX[2 * N], DX[2 * N], TX[2 * N];
  for (int I = 0; I < 2 * N; ++I) {
    HostX[I] = 0.2 + 0.01 * I;
    DX[I] = 0;
    TX[I] = std::cos(0.3 * I);
  }
  const double S = 0.8, C0 = 1.1, C1 = -0.3, A = 0.9;
  const float Wx = 1.25f, Wy = -0.5f, Weight = 0.5f;
  Gradient G = __enzyme_autodiff_g((void *)loss, enzyme_dup, HostX, DX, S, C0,
                                   C1, A, Wx, Wy, Weight, N);
  CUDA_CHECK(cudaDeviceSynchronize());

  // Central differences; the float parameters with a larger step.
  auto At = [&](double dS, double dC0, double dC1, double dA, double dWx,
                double dWy) {
    return loss(HostX, S + dS, C0 + dC0, C1 + dC1, A + dA, Wx + (float)dWx,
                Wy + (float)dWy, Weight, N);
  };
  const double H = 1e-6, HF = 1.0 / 64;
  checkClose("d/dScale", G.S, (At(H, 0, 0, 0, 0, 0) - At(-H, 0, 0, 0, 0, 0)) / (2 * H), 1e-6);
  checkClose("d/dCoef0", G.C0, (At(0, H, 0, 0, 0, 0) - At(0, -H, 0, 0, 0, 0)) / (2 * H), 1e-6);
  checkClose("d/dCoef1", G.C1, (At(0, 0, H, 0, 0, 0) - At(0, 0, -H, 0, 0, 0)) / (2 * H), 1e-6);
  checkClose("d/dGain", G.A, (At(0, 0, 0, H, 0, 0) - At(0, 0, 0, -H, 0, 0)) / (2 * H), 1e-6);
  // Z is linear in the float2's fields: exact differences with a step the
  // floats represent.
  checkClose("d/dW.x", G.Wx, (At(0, 0, 0, 0, HF, 0) - At(0, 0, 0, 0, -HF, 0)) / (2 * HF), 1e-5);
  checkClose("d/dW.y", G.Wy, (At(0, 0, 0, 0, 0, HF) - At(0, 0, 0, 0, 0, -HF)) / (2 * HF), 1e-5);
  check("no derivative for the packed float", G.Weight == 0);
  bool XOk = true;
  double Copy[2 * N];
  for (int I = 0; I < 2 * N; ++I)
    Copy[I] = HostX[I];
  for (int I = 0; I < 2 * N; I += 7) {
    Copy[I] = HostX[I] + H;
    double Up = loss(Copy, S, C0, C1, A, Wx, Wy, Weight, N);
    Copy[I] = HostX[I] - H;
    double Down = loss(Copy, S, C0, C1, A, Wx, Wy, Weight, N);
    Copy[I] = HostX[I];
    double Expected = (Up - Down) / (2 * H);
    if (!(std::fabs(DX[I] - Expected) <= 1e-6 * (1 + std::fabs(Expected)))) {
      std::printf("d/dX[%d]: got %.17g, expected %.17g\n", I, DX[I], Expected);
      XOk = false;
    }
  }
  check("d/dX through the structs' pointers", XOk);

  // Forward mode along (TX, 1, -1, 0.5, 2, 0.25, -2): the gradient's
  // projection.
  double Tangent = __enzyme_fwddiff(
      (void *)loss, enzyme_dup, HostX, TX, enzyme_dup, S, 1.0, enzyme_dup, C0,
      -1.0, enzyme_dup, C1, 0.5, enzyme_dup, A, 2.0, enzyme_dup, Wx, 0.25f,
      enzyme_dup, Wy, -2.0f, enzyme_const, Weight, enzyme_const, N);
  double Projection = G.S - G.C0 + 0.5 * G.C1 + 2 * G.A + 0.25 * G.Wx - 2 * G.Wy;
  for (int I = 0; I < 2 * N; ++I)
    Projection += DX[I] * TX[I];
  checkClose("forward agrees with reverse", Tangent, Projection, 1e-5);
  return finish();
}
