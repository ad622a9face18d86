// A complete CUDA program: kernel, device memory, copies and a launch.
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void saxpy(int N, float A, const float *X, float *Y) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    // The libdevice call must not change the value: (4 + s) - s rounds
    // differently for different sinf implementations, 0 * s does not.
    Y[I] = A * X[I] + Y[I] + 0.0f * sinf(X[I]);
}

int main() {
  const int N = 1 << 12;
  static float X[N], Y[N];
  for (int I = 0; I < N; ++I) {
    X[I] = 1.0f;
    Y[I] = 2.0f;
  }
  float *DX, *DY;
  cudaError_t Status = cudaMalloc(&DX, sizeof X);
  if (Status != cudaSuccess) {
    std::printf("cudaMalloc: %s\n", cudaGetErrorString(Status));
    return 2;
  }
  cudaMalloc(&DY, sizeof Y);
  cudaMemcpy(DX, X, sizeof X, cudaMemcpyHostToDevice);
  cudaMemcpy(DY, Y, sizeof Y, cudaMemcpyHostToDevice);
  saxpy<<<(N + 255) / 256, 256>>>(N, 2.0f, DX, DY);
  Status = cudaMemcpy(Y, DY, sizeof Y, cudaMemcpyDeviceToHost);
  if (Status != cudaSuccess) {
    std::printf("kernel: %s\n", cudaGetErrorString(Status));
    return 2;
  }
  float MaxError = 0;
  for (int I = 0; I < N; ++I)
    MaxError = std::fmax(MaxError, std::fabs(Y[I] - 4.0f));
  std::printf("max error: %f\n", MaxError);
  cudaFree(DX);
  cudaFree(DY);
  return MaxError == 0 ? 0 : 1;
}
