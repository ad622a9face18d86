// Differentiated host code that copies to and from __device__ variables
// (cudaMemcpyToSymbol, cudaMemcpyFromSymbol, their Async forms, at an
// offset too) and between
// pitched 2D buffers (cudaMallocPitch; cudaMemcpy2D, cudaMemcpy2DAsync,
// cudaMemset2D and cudaMemset2DAsync),
// around kernel launches,
// with nothing but __enzyme_autodiff. A __device__ variable's adjoints live
// in the shadow the program declares for it (enzyme_shadow), which both
// compilations know. Checked against analytic gradients at -O0 and -O2, and
// forward mode (__enzyme_fwddiff, the copies' tangents) against them.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// Values that carry derivatives copied into a __device__ variable without a
// shadow would lose them: the program stops with a message.
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -DNO_SHADOW %s -o %t.noshadow
// RUN: not --crash %t.noshadow 2>&1 | FileCheck %s --check-prefix=NOSHADOW
// CHECK-NOT: FAIL
// CHECK: all checks passed
// NOSHADOW: enzyme: in the derivative of cudaMemcpyToSymbol: the values it copies carry derivatives, but the __device__ variable it copies them into has no shadow; declare one with __attribute__((enzyme_shadow(name)))
#include "../Inputs/check.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const;

constexpr int Rows = 5, Cols = 7;

#ifdef NO_SHADOW
__device__ double Coef[4];
#else
__device__ double CoefShadow[4];
__attribute__((enzyme_shadow(CoefShadow))) __device__ double Coef[4];
#endif
__device__ double TotalShadow;
__attribute__((enzyme_shadow(TotalShadow))) __device__ double Total;

// Each element of a pitched matrix through a quadratic whose coefficients
// are in Coef; the row sums into Total. Pitch: doubles per padded row.
__global__ void polish(double *M, int Pitch) {
  int R = blockIdx.x, C = threadIdx.x;
  double *X = M + R * Pitch + C;
  *X = Coef[0] * *X * *X + Coef[1] * *X + Coef[2] + Coef[3] * R;
}

__global__ void total(const double *M, int Pitch) {
  double S = 0;
  for (int R = 0; R < Rows; ++R)
    for (int C = 0; C < Cols; ++C)
      S += M[R * Pitch + C] * M[R * Pitch + C];
  Total = S;
}

// A host matrix (rows of Cols) goes to pitched device memory (rows padded
// by cudaMallocPitch: 256 bytes under emulation) and back; the
// coefficients go to Coef in two copies (the last at an offset, on a
// stream); the result comes back from Total, twice.
double loss(const double *Host, const double *C) {
  cudaMemcpyToSymbol(Coef, C, 3 * sizeof(double));
  cudaMemcpyToSymbolAsync(Coef, C + 3, sizeof(double), 3 * sizeof(double),
                          cudaMemcpyHostToDevice, 0);
  double *M;
  size_t PitchBytes;
  cudaMallocPitch((void **)&M, &PitchBytes, Cols * sizeof(double), Rows);
  int Pitch = PitchBytes / sizeof(double);
  cudaMemset(M, 0, Rows * PitchBytes);
  cudaMemcpy2D(M, PitchBytes, Host, Cols * sizeof(double),
               Cols * sizeof(double), Rows, cudaMemcpyHostToDevice);
  polish<<<Rows, Cols>>>(M, Pitch);
  // Two corners overwritten with zeros (2D memsets, one on a stream): no
  // derivative reaches through them.
  cudaMemset2D(M + 5, PitchBytes, 0, 2 * sizeof(double), 1);
  cudaMemset2DAsync(M + 3 * Pitch, PitchBytes, 0, 2 * sizeof(double), 2, 0);
  // Rows 1..3 come back to the host, 2D again (on a stream), and count twice.
  double Back[3 * Cols];
  cudaMemcpy2DAsync(Back, Cols * sizeof(double), M + Pitch, PitchBytes,
                    Cols * sizeof(double), 3, cudaMemcpyDeviceToHost, 0);
  total<<<1, 1>>>(M, Pitch);
  double T, T2;
  cudaMemcpyFromSymbol(&T, Total, sizeof(double));
  cudaMemcpyFromSymbolAsync(&T2, Total, sizeof(double), 0,
                            cudaMemcpyDeviceToHost, 0);
  cudaStreamSynchronize(0);
  cudaFree(M);
  double S = 0.5 * (T + T2);
  for (int I = 0; I < 3 * Cols; ++I)
    S += Back[I];
  return S;
}

int main() {
  double Host[Rows * Cols], DHost[Rows * Cols] = {};
  double C[4] = {0.3, -0.7, 0.2, 0.05}, DC[4] = {};
  for (int I = 0; I < Rows * Cols; ++I)
    Host[I] = 0.1 * I - 1.2;
  __enzyme_autodiff((void *)loss, enzyme_dup, Host, DHost, enzyme_dup, C, DC);

  // loss = sum_all y^2 + sum_{rows 1..3} y, y = c0 x^2 + c1 x + c2 + c3 r,
  // where y is not cleared.
  double Expected[4] = {};
  bool HostOk = true;
  for (int R = 0; R < Rows; ++R)
    for (int K = 0; K < Cols; ++K) {
      double X = Host[R * Cols + K];
      bool Cleared = (R == 0 && K >= 5) || (R >= 3 && K < 2);
      double Y = C[0] * X * X + C[1] * X + C[2] + C[3] * R;
      double DY = Cleared ? 0 : 2 * Y + (R >= 1 && R <= 3 ? 1 : 0);
      double Dx[4] = {X * X, X, 1, double(R)};
      for (int J = 0; J < 4; ++J)
        Expected[J] += DY * Dx[J];
      double DX = DY * (2 * C[0] * X + C[1]);
      HostOk &= std::fabs(DHost[R * Cols + K] - DX) <= 1e-10 * (1 + std::fabs(DX));
    }
  check("d/dhost matrix through both 2D copies", HostOk);
  for (int J = 0; J < 4; ++J) {
    char Name[64];
    std::snprintf(Name, sizeof Name, "d/dC[%d] through the symbol copies", J);
    checkClose(Name, DC[J], Expected[J], 1e-10);
  }

  // The tangent along a direction is the gradient's projection on it.
  double THost[Rows * Cols], TC[4] = {0.5, -1, 0.25, 2};
  double Projection = 0;
  for (int I = 0; I < Rows * Cols; ++I) {
    THost[I] = std::cos(0.4 * I);
    Projection += DHost[I] * THost[I];
  }
  for (int J = 0; J < 4; ++J)
    Projection += DC[J] * TC[J];
  double Tangent = __enzyme_fwddiff((void *)loss, enzyme_dup, Host, THost,
                                    enzyme_dup, C, TC);
  checkClose("forward mode through the symbol and 2D copies", Tangent,
             Projection, 1e-10);
  return finish();
}
