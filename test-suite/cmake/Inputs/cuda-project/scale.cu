#include <cstdio>

__global__ void scale(double *x, double a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

int main() {
  const int n = 4;
  double host[n] = {1, 2, 3, 4};
  double *dev = nullptr;
  if (cudaMalloc(&dev, sizeof host) != cudaSuccess)
    return 1;
  cudaMemcpy(dev, host, sizeof host, cudaMemcpyHostToDevice);
  scale<<<1, n>>>(dev, 2.0, n);
  cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(dev);
  std::printf("%g %g %g %g\n", host[0], host[1], host[2], host[3]);
  return 0;
}
