// Differentiates step (Inputs/launcher-kernels.cu) from a C++ file, in
// reverse and forward mode.
#include <cmath>
#include <cstdio>
extern "C" int cudaMallocManaged(void **, unsigned long, unsigned);
extern "C" int cudaDeviceSynchronize();

void step(double *X, int N);
extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

int main() {
  const int N = 50;
  double *X, *DX;
  cudaMallocManaged((void **)&X, N * sizeof(double), 1);
  cudaMallocManaged((void **)&DX, N * sizeof(double), 1);
  for (int I = 0; I < N; ++I) {
    X[I] = 0.1 * I;
    DX[I] = 1;
  }
  __enzyme_autodiff((void *)step, enzyme_dup, X, DX, N);
  cudaDeviceSynchronize();
  bool Ok = true;
  for (int I = 0; I < N; ++I)
    Ok &= std::fabs(DX[I] - 0.2 * I) < 1e-12;
  std::printf("%s\n", Ok ? "gradient ok" : "gradient WRONG");
  // Forward mode through the same registration: X^2 along DX = 1 + I.
  for (int I = 0; I < N; ++I) {
    X[I] = 0.1 * I;
    DX[I] = 1 + I;
  }
  __enzyme_fwddiff((void *)step, enzyme_dup, X, DX, N);
  cudaDeviceSynchronize();
  bool TangentOk = true;
  for (int I = 0; I < N; ++I)
    TangentOk &= std::fabs(DX[I] - 0.2 * I * (1 + I)) < 1e-12 &&
                 std::fabs(X[I] - 0.01 * I * I) < 1e-12;
  std::printf("%s\n", TangentOk ? "tangent ok" : "tangent WRONG");
  return !Ok || !TangentOk;
}
