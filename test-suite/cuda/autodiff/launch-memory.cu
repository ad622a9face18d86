// Differentiated host code that manages device memory itself: cudaMalloc,
// cudaMallocManaged (with cudaMemAdvise and cudaMemPrefetchAsync), cudaMemcpy
// in every direction, cudaMemcpyAsync,
// cudaMemsetAsync and cudaFree around kernel launches, one of them on a
// stream the code creates and destroys, with nothing but __enzyme_autodiff.
// The copies of device memory that the host code never reads are typed by
// the kernels' parameter types, through a staging buffer too. Checked
// against the analytic gradient and central finite differences at -O0 and
// -O2.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// A copy that nothing types stops the reverse pass with a message instead
// of moving adjoints of a guessed type, at the copy's line (before, the
// message named no place).
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -DUNTYPED %s -o %t.untyped
// RUN: not --crash %t.untyped 2>&1 | FileCheck %s --check-prefix=UNTYPED
// CHECK-NOT: FAIL
// CHECK: all checks passed
// UNTYPED: enzyme: in the derivative of cudaMemcpy at {{.*}}launch-memory.cu:[[#@LINE+62]]:3: nothing in the program says whether the memory it copies holds float, double, integer or pointer values
#include "../Inputs/check.h"

__global__ void square(const double *X, double *Y, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Y[I] += X[I] * X[I];
}

__global__ void shift(const double *Y, double *Z, double C, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Z[I] = C * sin(Y[(I + 1) % N]);
}

extern "C" __global__ void scale_untyped(float *X, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    X[I] *= 3;
}

// sum_i sin(C sin(X[i+1]^2)) with the intermediate arrays in device memory.
double loss(const double *HostX, double C, int N) {
  size_t Bytes = N * sizeof(double);
  double *X, *Y, *Y2, *Z;
  cudaMalloc(&X, Bytes);
  cudaMalloc(&Y, Bytes);
  cudaMalloc(&Y2, Bytes);
  cudaMallocManaged(&Z, Bytes);
  // Hints about where the managed block lives change no value.
  cudaMemLocation OnDevice = {cudaMemLocationTypeDevice, 0};
  cudaMemAdvise(Z, Bytes, cudaMemAdviseSetPreferredLocation, OnDevice);
  cudaMemPrefetchAsync(Z, Bytes, OnDevice, 0, 0);
  cudaMemcpy(X, HostX, Bytes, cudaMemcpyHostToDevice);
  cudaMemsetAsync(Y, 0, Bytes, 0);
  square<<<(N + 31) / 32, 32>>>(X, Y, N);
  cudaMemcpy(Y2, Y, Bytes, cudaMemcpyDeviceToDevice);
  // On a stream of its own, which the default stream does not wait for.
  cudaStream_t Stream;
  cudaStreamCreateWithFlags(&Stream, cudaStreamNonBlocking);
  shift<<<(N + 63) / 64, 64, 0, Stream>>>(Y2, Z, C, N);
  cudaStreamSynchronize(Stream);
  cudaStreamDestroy(Stream);
  double *HostZ = new double[N];
  cudaMemcpyAsync(HostZ, Z, Bytes, cudaMemcpyDeviceToHost, 0);
  cudaStreamSynchronize(0);
  double Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += sin(HostZ[I]);
  delete[] HostZ;
  cudaFree(X);
  cudaFree(Y);
  cudaFree(Y2);
  cudaFree(Z);
  return Sum;
}

// The kernel is extern "C", so its parameters' types are not in its
// stub's name, and nothing else reads the copied memory with a type.
float untyped(const void *Host, int N) {
  void *X;
  cudaMalloc(&X, N * sizeof(float));
  cudaMemcpy(X, Host, N * sizeof(float), cudaMemcpyHostToDevice);
  scale_untyped<<<1, 64>>>((float *)X, N);
  float Result;
  cudaMemcpy(&Result, X, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(X);
  return Result;
}

// Floats staged through a second device buffer before a kernel reads
// them: the first copy's memory is typed by the kernel that reads the
// buffer the second copy fills (it stopped the reverse pass as untyped).
__global__ void squareFloats(const float *U, double *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = (double)U[I] * U[I];
}

double staged(const float *Host, int N) {
  float *Staging, *U;
  double *Out;
  cudaMalloc(&Staging, N * sizeof(float));
  cudaMalloc(&U, N * sizeof(float));
  cudaMalloc(&Out, N * sizeof(double));
  cudaMemcpy(Staging, Host, N * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(U, Staging, N * sizeof(float), cudaMemcpyDeviceToDevice);
  squareFloats<<<(N + 63) / 64, 64>>>(U, Out, N);
  double *HostOut = new double[N];
  cudaMemcpy(HostOut, Out, N * sizeof(double), cudaMemcpyDeviceToHost);
  double Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += HostOut[I];
  delete[] HostOut;
  cudaFree(Staging);
  cudaFree(U);
  cudaFree(Out);
  return Sum;
}

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);

int main() {
  const int N = 100;
#ifdef UNTYPED
  float HostU[N], DHostU[N] = {0};
  for (int I = 0; I < N; ++I)
    HostU[I] = I;
  __enzyme_autodiff((void *)untyped, enzyme_dup, HostU, DHostU, N);
  return 0;
#endif
  double HostX[N], DHostX[N];
  for (int I = 0; I < N; ++I) {
    HostX[I] = 0.5 + 0.01 * I;
    DHostX[I] = 0;
  }
  const double C = 0.8;
  double DC = __enzyme_autodiff((void *)loss, enzyme_dup, HostX, DHostX,
                                enzyme_out, C, N);
  CUDA_CHECK(cudaDeviceSynchronize());
  // d/dX[j]: term i = j - 1 (mod N) reads X[j].
  bool Ok = true;
  for (int J = 0; J < N; ++J) {
    int I = (J + N - 1) % N;
    double Y = HostX[J] * HostX[J];
    double Expected = cos(C * sin(Y)) * C * cos(Y) * 2 * HostX[J];
    (void)I;
    Ok &= std::fabs(DHostX[J] - Expected) <= 1e-9 * (1 + std::fabs(Expected));
    if (J == 42)
      std::printf("d/dX[42] %.12g (expected %.12g)\n", DHostX[J], Expected);
  }
  check("d/dX through the copies, the memset and two launches", Ok);
  const double H = 1e-6;
  double Up = loss(HostX, C + H, N), Down = loss(HostX, C - H, N);
  checkClose("d/dC", DC, (Up - Down) / (2 * H), 1e-6);

  float HostS[N], DHostS[N];
  for (int I = 0; I < N; ++I) {
    HostS[I] = 0.25f * I;
    DHostS[I] = 0;
  }
  __enzyme_autodiff((void *)staged, enzyme_dup, HostS, DHostS, enzyme_const,
                    N);
  bool UOk = true;
  for (int I = 0; I < N; ++I)
    UOk &= DHostS[I] == 2 * HostS[I];
  check("d/dU through a staging buffer", UOk);
  return finish();
}
