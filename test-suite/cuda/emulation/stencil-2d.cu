// A 2-D five-point stencil over a grid of 2-D blocks, each loading its tile
// and halo into shared memory; ragged edges exercise the guards.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"

constexpr int Tile = 8;

__global__ void laplace(const float *In, float *Out, int W, int H) {
  __shared__ float S[Tile + 2][Tile + 2];
  int X = blockIdx.x * Tile + threadIdx.x, Y = blockIdx.y * Tile + threadIdx.y;
  auto At = [&](int I, int J) {
    I = I < 0 ? 0 : (I >= W ? W - 1 : I);
    J = J < 0 ? 0 : (J >= H ? H - 1 : J);
    return In[J * W + I];
  };
  int TX = threadIdx.x + 1, TY = threadIdx.y + 1;
  S[TY][TX] = At(X, Y);
  if (threadIdx.x == 0)
    S[TY][0] = At(X - 1, Y);
  if (threadIdx.x == Tile - 1)
    S[TY][Tile + 1] = At(X + 1, Y);
  if (threadIdx.y == 0)
    S[0][TX] = At(X, Y - 1);
  if (threadIdx.y == Tile - 1)
    S[Tile + 1][TX] = At(X, Y + 1);
  __syncthreads();
  if (X < W && Y < H)
    Out[Y * W + X] = S[TY][TX - 1] + S[TY][TX + 1] + S[TY - 1][TX] +
                     S[TY + 1][TX] - 4 * S[TY][TX];
}

int main() {
  const int W = 29, H = 19;
  float *In, *Out;
  CUDA_CHECK(cudaMallocManaged(&In, W * H * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&Out, W * H * sizeof(float)));
  for (int J = 0; J < H; ++J)
    for (int I = 0; I < W; ++I)
      In[J * W + I] = std::cos(0.3f * I) * (J + 1) + 0.01f * I * J;
  dim3 Blocks((W + Tile - 1) / Tile, (H + Tile - 1) / Tile);
  laplace<<<Blocks, dim3(Tile, Tile)>>>(In, Out, W, H);
  CUDA_CHECK(cudaDeviceSynchronize());
  auto At = [&](int I, int J) {
    I = I < 0 ? 0 : (I >= W ? W - 1 : I);
    J = J < 0 ? 0 : (J >= H ? H - 1 : J);
    return In[J * W + I];
  };
  bool Ok = true;
  for (int J = 0; J < H; ++J)
    for (int I = 0; I < W; ++I) {
      float E = At(I - 1, J) + At(I + 1, J) + At(I, J - 1) + At(I, J + 1) -
                4 * At(I, J);
      Ok &= std::fabs(Out[J * W + I] - E) <= 1e-5f * (1 + std::fabs(E));
    }
  check("2-D stencil with halo", Ok);
  return finish();
}
