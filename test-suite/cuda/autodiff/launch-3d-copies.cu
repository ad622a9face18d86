// Differentiated host code that works on 3D pitched memory: cudaMalloc3D,
// cudaMemcpy3D and cudaMemcpy3DAsync (host to device, device to device,
// device to host, at positions inside the volume, with one parameter
// struct reused for two copies), cudaMemset3D and cudaMemset3DAsync, around
// kernels that take the pitched pointer by value or as a typed pointer,
// with nothing but __enzyme_autodiff, in a function with a cleanup on
// unwinding. Checked against analytic gradients at
// -O0 and -O2, for double and float, and forward mode (the copies'
// tangents) against them.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -DREAL=float %s -o %t.float && %t.float | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// A CUDA array cannot hold derivatives: copying values that carry them
// into one stops the program with a message.
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -DINTO_ARRAY %s -o %t.array
// RUN: not --crash %t.array 2>&1 | FileCheck %s --check-prefix=ARRAY
// CHECK-NOT: FAIL
// CHECK: all checks passed
// ARRAY: enzyme: in the derivative of cudaMemcpy3D: the values it copies into a CUDA array carry derivatives, which a CUDA array cannot hold; copy them to linear memory (cudaMalloc3D) instead
#include "../Inputs/check.h"

#ifndef REAL
#define REAL double
#endif
using Real = REAL;
constexpr double Tolerance = sizeof(Real) == 8 ? 1e-10 : 2e-4;

extern double __enzyme_autodiff(void *, ...);
extern Real __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const;

constexpr int NX = 6, NY = 4, NZ = 3;

// y = a sin(v) v, in place; one block per slice, one thread per element.
__global__ void wave(cudaPitchedPtr V, Real A) {
  int X = threadIdx.x, Y = threadIdx.y, Z = blockIdx.x;
  Real *Row = (Real *)((char *)V.ptr + (Z * V.ysize + Y) * V.pitch);
  Row[X] = A * sin(Row[X]) * Row[X];
}

// w = y + y^2 / 2, through a typed pointer and the pitch in elements.
__global__ void bend(Real *Base, size_t Pitch, size_t SliceRows) {
  int X = threadIdx.x, Y = threadIdx.y, Z = blockIdx.x;
  Real &W = Base[(Z * SliceRows + Y) * Pitch + X];
  W = W + 0.5 * W * W;
}

// A local with a destructor: the runtime calls become invokes.
int Cleanups;
struct Cleanup {
  ~Cleanup() { ++Cleanups; }
};

Real loss(const Real *Host, const Real *A) {
  Cleanup OnExit;
  cudaExtent Volume = make_cudaExtent(NX * sizeof(Real), NY, NZ);
  cudaPitchedPtr D, D2;
  cudaMalloc3D(&D, Volume);
  cudaMalloc3D(&D2, Volume);
  cudaMemcpy3DParms P = {0};
  P.srcPtr = make_cudaPitchedPtr((void *)Host, NX * sizeof(Real), NX, NY);
  P.dstPtr = D;
  P.extent = Volume;
  P.kind = cudaMemcpyHostToDevice;
#ifdef INTO_ARRAY
  P.dstArray = (cudaArray_t)&D2;
#endif
  cudaMemcpy3D(&P);
  wave<<<NZ, dim3(NX, NY)>>>(D, *A);

  // Two corners cleared: x 0..1, y 0..1 of slice 2; x 4..5, y 2..3 of
  // slices 0..1 (on a stream).
  cudaPitchedPtr Corner = D;
  Corner.ptr = (char *)D.ptr + 2 * D.pitch * D.ysize;
  cudaMemset3D(Corner, 0, make_cudaExtent(2 * sizeof(Real), 2, 1));
  Corner.ptr = (char *)D.ptr + 2 * D.pitch + 4 * sizeof(Real);
  cudaMemset3DAsync(Corner, 0, make_cudaExtent(2 * sizeof(Real), 2, 2), 0);

  // The whole volume to D2, device to device; D2 bends.
  cudaMemcpy3DParms Whole = {0};
  Whole.srcPtr = D;
  Whole.dstPtr = D2;
  Whole.extent = Volume;
  Whole.kind = cudaMemcpyDeviceToDevice;
  cudaMemcpy3D(&Whole);
  bend<<<NZ, dim3(NX, NY)>>>((Real *)D2.ptr, D2.pitch / sizeof(Real),
                             D2.ysize);

  // Back to the host: the box x 1..4, y 1..3, z 0..2 of D2 (on a stream),
  // then, with the same struct, slice 2 of D.
  Real Box[3 * 3 * 4], Slice[NY * NX];
  cudaMemcpy3DParms Q = {0};
  Q.srcPtr = D2;
  Q.srcPos = make_cudaPos(sizeof(Real), 1, 0);
  Q.dstPtr = make_cudaPitchedPtr(Box, 4 * sizeof(Real), 4, 3);
  Q.extent = make_cudaExtent(4 * sizeof(Real), 3, 3);
  Q.kind = cudaMemcpyDeviceToHost;
  cudaMemcpy3DAsync(&Q, 0);
  cudaStreamSynchronize(0);
  Q.srcPtr = D;
  Q.srcPos = make_cudaPos(0, 0, 2);
  Q.dstPtr = make_cudaPitchedPtr(Slice, NX * sizeof(Real), NX, NY);
  Q.extent = make_cudaExtent(NX * sizeof(Real), NY, 1);
  cudaMemcpy3D(&Q);
  cudaFree(D.ptr);
  cudaFree(D2.ptr);

  Real S = 0;
  for (Real B : Box)
    S += B * B;
  for (Real V : Slice)
    S += 1.5 * V;
  return S;
}

int main() {
  constexpr int N = NX * NY * NZ;
  Real Host[N], DHost[N] = {}, A = 0.7, DA = 0;
  for (int I = 0; I < N; ++I)
    Host[I] = 0.05 * I - 1;
  __enzyme_autodiff((void *)loss, enzyme_dup, Host, DHost, enzyme_dup, &A,
                    &DA);

  // loss = sum_box w^2 + 1.5 sum_{z = 2} y, where y is not cleared.
  double ExpectedDA = 0;
  bool HostOk = true;
  for (int Z = 0; Z < NZ; ++Z)
    for (int Y = 0; Y < NY; ++Y)
      for (int X = 0; X < NX; ++X) {
        double V = Host[(Z * NY + Y) * NX + X];
        bool Cleared = (Z == 2 && X < 2 && Y < 2) ||
                       (Z < 2 && X >= 4 && Y >= 2);
        bool InBox = X >= 1 && X <= 4 && Y >= 1;
        double Wave = A * std::sin(V) * V, W = Wave + 0.5 * Wave * Wave;
        double DWave = Cleared ? 0
                               : (InBox ? 2 * W * (1 + Wave) : 0) +
                                     (Z == 2 ? 1.5 : 0);
        ExpectedDA += DWave * std::sin(V) * V;
        double DV = DWave * A * (std::cos(V) * V + std::sin(V));
        double Got = DHost[(Z * NY + Y) * NX + X];
        if (std::fabs(Got - DV) > Tolerance * (1 + std::fabs(DV))) {
          std::printf("FAIL d/dhost[%d][%d][%d]: got %g, expected %g\n", Z, Y,
                      X, Got, DV);
          HostOk = false;
        }
      }
  check("d/dhost through the 3D copies, memsets and kernels", HostOk);
  checkClose("d/da through the kernel's by-value parameter", DA, ExpectedDA,
             Tolerance);

  // The tangent along a direction is the gradient's projection on it.
  Real THost[N], TA = 0.5;
  double Projection = DA * TA;
  for (int I = 0; I < N; ++I) {
    THost[I] = std::cos(0.4 * I);
    Projection += DHost[I] * THost[I];
  }
  Real Tangent = __enzyme_fwddiff((void *)loss, enzyme_dup, Host, THost,
                                  enzyme_dup, &A, &TA);
  checkClose("forward mode through the 3D copies", Tangent, Projection,
             Tolerance);
  return finish();
}
