// Host code of launch-rdc.test: it launches kernels that rdc-kernels.cu
// defines (relocatable device code) and is differentiated in reverse and
// forward mode; the derivative kernels come from the other file at the link.
#include "../../Inputs/check.h"

__global__ void cubePlusOne(double *X, int N);
__global__ void scaleInto(const double *X, double *Y, double Factor, int N);
__global__ void lastBlockSums(double *X, unsigned *Done, double *Sum);

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const, enzyme_out;

// sum_i (Factor * (X_i^3 + 1))^2, with X and Y in managed memory.
double loss(double *X, double *Y, double Factor, int N) {
  cubePlusOne<<<(N + 31) / 32, 32>>>(X, N);
  scaleInto<<<(N + 31) / 32, 32>>>(X, Y, Factor, N);
  cudaDeviceSynchronize();
  double S = 0;
  for (int I = 0; I < N; ++I)
    S += Y[I] * Y[I];
  return S;
}

double communicating(double *X, unsigned *Done, double *Sum) {
  lastBlockSums<<<2, 32>>>(X, Done, Sum);
  cudaDeviceSynchronize();
  return *Sum;
}

int main(int Argc, char **) {
  const int N = 40;
  const double Factor = 0.75;
  double *X, *DX, *Y, *DY;
  CUDA_CHECK(cudaMallocManaged(&X, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DX, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Y, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&DY, N * sizeof(double)));
  auto Input = [](int I) { return 0.25 + 0.05 * I; };

  if (Argc > 1) {
    unsigned *Done;
    double *Sum, *DSum;
    CUDA_CHECK(cudaMallocManaged(&Done, sizeof(unsigned)));
    CUDA_CHECK(cudaMallocManaged(&Sum, sizeof(double)));
    CUDA_CHECK(cudaMallocManaged(&DSum, sizeof(double)));
    __enzyme_autodiff((void *)communicating, enzyme_dup, X, DX, enzyme_const,
                      Done, enzyme_dup, Sum, DSum);
    std::printf("FAIL: the launch of a kernel that cannot be differentiated "
                "ran\n");
    return 1;
  }

  for (int I = 0; I < N; ++I) {
    X[I] = Input(I);
    DX[I] = DY[I] = 0;
  }
  double DFactor = __enzyme_autodiff((void *)loss, enzyme_dup, X, DX,
                                     enzyme_dup, Y, DY, enzyme_out, Factor,
                                     enzyme_const, N);
  bool Ok = true;
  double ExpectedDFactor = 0;
  for (int I = 0; I < N; ++I) {
    double C = Input(I) * Input(I) * Input(I) + 1;
    double Expected = 2 * Factor * C * Factor * 3 * Input(I) * Input(I);
    Ok &= std::fabs(DX[I] - Expected) <= 1e-12 * (1 + std::fabs(Expected));
    ExpectedDFactor += 2 * Factor * C * C;
  }
  check("reverse mode: the gradient of the inputs", Ok);
  checkClose("reverse mode: the adjoint of the by-value factor", DFactor,
             ExpectedDFactor, 1e-12);

  // Forward mode along X_i = 1 for all i, against the gradient's sum.
  double GradientSum = 0;
  for (int I = 0; I < N; ++I) {
    GradientSum += DX[I];
    X[I] = Input(I);
    DX[I] = 1;
    DY[I] = 0;
  }
  double Tangent =
      __enzyme_fwddiff((void *)loss, enzyme_dup, X, DX, enzyme_dup, Y, DY,
                       enzyme_const, Factor, enzyme_const, N);
  checkClose("forward mode agrees with reverse mode", Tangent, GradientSum,
             1e-12);
  return finish();
}
