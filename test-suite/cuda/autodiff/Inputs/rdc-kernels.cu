// Kernels of launch-rdc.test, defined here and launched by host code in
// rdc-launcher.cu (relocatable device code). Built with -fenzyme -fgpu-rdc,
// this file makes derivative and tangent kernels for every kernel that
// other files can launch.

__device__ double cube(double X) { return X * X * X; }

__global__ void cubePlusOne(double *X, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    X[I] = cube(X[I]) + 1.0;
}

// A by-value double: its adjoint is summed over the launch's threads.
__global__ void scaleInto(const double *X, double *Y, double Factor, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Y[I] = Factor * X[I];
}

// Blocks that communicate: reverse mode cannot differentiate it, which the
// device compilation warns about; its launch in differentiated code stops.
__global__ void lastBlockSums(double *X, unsigned *Done, double *Sum) {
  __shared__ bool Last;
  if (threadIdx.x == 0) {
    __threadfence();
    Last = atomicAdd(Done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (Last && threadIdx.x == 0)
    for (unsigned B = 0; B < gridDim.x; ++B)
      *Sum += X[B];
}

// Kernels no other file can launch by name: a static one, and a template's
// instance, which each file that launches it defines. They get no
// derivative kernels here.
static __global__ void clearFirst(double *X) { X[0] = 0; }
template <class T> __global__ void clearSecond(T *X) { X[1] = 0; }
void clearBoth(double *X) {
  clearFirst<<<1, 1>>>(X);
  clearSecond<<<1, 1>>>(X);
}
