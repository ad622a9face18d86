// A batched small-matrix kernel as cuBLAS-style code writes it (one block per
// matrix, a template over the size, __launch_bounds__, __restrict__, __ldg,
// #pragma unroll) followed by a layer normalisation of each row in shared
// memory, both launched from the host function that is differentiated.
// Under emulation at -O0 the engine's copies of the kernels kept the
// unoptimised code's `#pragma unroll`, and the pipeline of the fat object,
// which runs on them (they are not optnone), warned "loop not unrolled" on
// every build; the copies of unoptimised code now drop such hints.
// Central differences, -O0 and -O2.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// QUIET-NOT: warning
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"
extern double __enzyme_autodiff(void *, ...);
int enzyme_dup, enzyme_const, enzyme_out;
constexpr int N = 8, Batch = 5;

template <int D>
__global__ void __launch_bounds__(64) batchedGemv(const float *__restrict__ A, const float *__restrict__ x, float *__restrict__ y) {
  int b = blockIdx.x;
  int r = threadIdx.x;
  if (r >= D) return;
  const float *Ab = A + b * D * D;
  float acc = 0;
#pragma unroll
  for (int c = 0; c < D; ++c)
    acc += __ldg(&Ab[r * D + c]) * x[b * D + c];
  y[b * D + r] = tanhf(acc);
}

__global__ void layerNorm(const float *y, float *out) {
  __shared__ float s[N];
  __shared__ float mean, var;
  int b = blockIdx.x, t = threadIdx.x;
  s[t] = y[b * N + t];
  __syncthreads();
  if (t == 0) {
    float m = 0;
    for (int i = 0; i < N; ++i) m += s[i];
    m /= N;
    float v = 0;
    for (int i = 0; i < N; ++i) v += (s[i] - m) * (s[i] - m);
    mean = m;
    var = v / N;
  }
  __syncthreads();
  out[b * N + t] = (s[t] - mean) * rsqrtf(var + 1e-3f) * (t + 1);
}

double loss(const float *hA, const float *hx) {
  float *dA, *dx, *dy, *dout;
  cudaMalloc(&dA, sizeof(float) * Batch * N * N);
  cudaMalloc(&dx, sizeof(float) * Batch * N);
  cudaMalloc(&dy, sizeof(float) * Batch * N);
  cudaMalloc(&dout, sizeof(float) * Batch * N);
  cudaMemcpy(dA, hA, sizeof(float) * Batch * N * N, cudaMemcpyHostToDevice);
  cudaMemcpy(dx, hx, sizeof(float) * Batch * N, cudaMemcpyHostToDevice);
  batchedGemv<N><<<Batch, 64>>>(dA, dx, dy);
  layerNorm<<<Batch, N>>>(dy, dout);
  float h[Batch * N];
  cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
  double s = 0;
  for (int i = 0; i < Batch * N; ++i) s += h[i] * h[i] * (i % 3 + 1) * 0.01;
  cudaFree(dA); cudaFree(dx); cudaFree(dy); cudaFree(dout);
  return s;
}

int main() {
  static float A[Batch * N * N], x[Batch * N], dA[Batch * N * N], dx[Batch * N];
  for (int i = 0; i < Batch * N * N; ++i) A[i] = 0.3f * sinf(i * 0.7f);
  for (int i = 0; i < Batch * N; ++i) x[i] = cosf(i * 1.3f);
  __enzyme_autodiff((void *)loss, enzyme_dup, A, dA, enzyme_dup, x, dx);
  for (int k : {0, 7, 100, 311}) {
    float s = A[k]; double h = 1e-2;
    A[k] = s + h; double p = loss(A, x); A[k] = s - h; double m = loss(A, x); A[k] = s;
    checkClose("dA", dA[k], (p - m) / (2 * h), 2e-2);
  }
  for (int k : {0, 9, 39}) {
    float s = x[k]; double h = 1e-2;
    x[k] = s + h; double p = loss(A, x); x[k] = s - h; double m = loss(A, x); x[k] = s;
    checkClose("dx", dx[k], (p - m) / (2 * h), 2e-2);
  }
  return finish();
}
