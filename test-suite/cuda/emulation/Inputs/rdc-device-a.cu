// Device code of relocatable-device-code.test that rdc-device-b.cu uses:
// a device function, variables, a function pointer, kernels (one of them
// an explicit template instance) and a `__host__ __device__` function.

__device__ double Scale = 2.0;
__device__ int Counter;
// Each file has its own.
static __device__ double Offset = 1.0;

__device__ double affine(double X) { return Scale * X + Offset; }

// The host and the device versions differ; each side calls its own.
__host__ __device__ int where() {
#ifdef __CUDA_ARCH__
  return 1;
#else
  return 0;
#endif
}

typedef double (*UnaryFn)(double);
__device__ double negate(double X) { return -X; }
__device__ UnaryFn NegateFn = negate;

__global__ void applyAffine(double *X, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    X[I] = affine(X[I]);
    atomicAdd(&Counter, 1);
  }
}

template <class T> __global__ void scaleBy(T *X, T Factor) {
  X[threadIdx.x] *= Factor;
}
template __global__ void scaleBy<double>(double *, double);

// rdc-device-b.cu has a static kernel of the same name.
static __global__ void fill(double *X, double Value) {
  X[threadIdx.x] = Value + Offset;
}
void fillFromA(double *X, double Value, int N) { fill<<<1, N>>>(X, Value); }
