// Host and device code of relocatable-device-code.test that uses what
// rdc-device-a.cu defines.
#include "../../Inputs/check.h"

extern __device__ double Scale;
extern __device__ int Counter;
static __device__ double Offset = 100.0;
__device__ double affine(double X);
__host__ __device__ int where();
typedef double (*UnaryFn)(double);
extern __device__ UnaryFn NegateFn;
__device__ double negate(double X);
__global__ void applyAffine(double *X, int N);
template <class T> __global__ void scaleBy(T *X, T Factor);
extern template __global__ void scaleBy<double>(double *, double);
void fillFromA(double *X, double Value, int N);

static __global__ void fill(double *X, double Value) {
  X[threadIdx.x] = Value + Offset;
}

__global__ void useAll(double *X, int *Where, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    X[I] = NegateFn(affine(X[I])) + negate(Offset);
    Where[I] = where();
    atomicAdd(&Counter, 1);
  }
}

int main() {
  const int N = 8;
  double *X;
  int *Where;
  CUDA_CHECK(cudaMallocManaged(&X, N * sizeof(double)));
  CUDA_CHECK(cudaMallocManaged(&Where, N * sizeof(int)));

  // The other file's variable, through its symbol, before any launch.
  double NewScale = 3.0;
  CUDA_CHECK(cudaMemcpyToSymbol(Scale, &NewScale, sizeof NewScale));
  for (int I = 0; I < N; ++I)
    X[I] = I;
  applyAffine<<<2, 4>>>(X, N);
  CUDA_CHECK(cudaDeviceSynchronize());
  bool Ok = true;
  for (int I = 0; I < N; ++I)
    Ok &= X[I] == 3.0 * I + 1.0;
  check("a kernel of the other file, with its variable written here", Ok);

  useAll<<<2, 4>>>(X, Where, N);
  CUDA_CHECK(cudaDeviceSynchronize());
  Ok = true;
  for (int I = 0; I < N; ++I)
    Ok &= X[I] == -(3.0 * (3.0 * I + 1.0) + 1.0) - 100.0 && Where[I] == 1;
  check("device functions, a function pointer and variables of the other "
        "file; the device version of a __host__ __device__ function",
        Ok);
  check("the host version of a __host__ __device__ function", where() == 0);

  scaleBy<double><<<1, N>>>(X, -0.5);
  CUDA_CHECK(cudaDeviceSynchronize());
  Ok = true;
  for (int I = 0; I < N; ++I)
    Ok &= X[I] == 0.5 * (3.0 * (3.0 * I + 1.0) + 1.0) + 50.0;
  check("a template kernel instantiated in the other file", Ok);

  fill<<<1, N>>>(X, 1.0);
  CUDA_CHECK(cudaDeviceSynchronize());
  check("this file's static kernel and variable", X[N - 1] == 101.0);
  fillFromA(X, 1.0, N);
  CUDA_CHECK(cudaDeviceSynchronize());
  check("the other file's static kernel and variable of the same names",
        X[N - 1] == 2.0);

  int Count = 0;
  CUDA_CHECK(cudaMemcpyFromSymbol(&Count, Counter, sizeof Count));
  check("one counter for the kernels of both files", Count == 2 * N);
  CUDA_CHECK(cudaFree(X));
  CUDA_CHECK(cudaFree(Where));
  return finish();
}
