// Thrust's element-wise algorithms (sequence, fill, transform with a binary
// functor, for_each, gather, copies between host and device vectors) run
// under emulation. CUB's transform kernels prefetch into the L2 cache with
// inline PTX (`prefetch.global.L2`), a hint the emulator drops; before, it
// was a compile error ("CUDA emulation cannot run inline PTX assembly").
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/fill.h>
#include <thrust/for_each.h>
#include <thrust/gather.h>
#include <thrust/host_vector.h>
#include <thrust/sequence.h>
#include <thrust/transform.h>

struct Axpy {
  double A;
  __host__ __device__ double operator()(double X, double Y) const {
    return A * X + Y;
  }
};
struct Twice {
  __host__ __device__ void operator()(double &X) const { X *= 2; }
};

int main() {
  const int N = 5000;
  thrust::device_vector<double> X(N), Y(N), Z(N);
  thrust::sequence(X.begin(), X.end(), 1.0, 0.25);
  thrust::fill(Y.begin(), Y.end(), 3.0);
  thrust::transform(X.begin(), X.end(), Y.begin(), Z.begin(), Axpy{2.0});
  thrust::for_each(Z.begin(), Z.end(), Twice());
  thrust::device_vector<int> Index(N);
  thrust::sequence(Index.begin(), Index.end(), N - 1, -1);
  thrust::device_vector<double> Reversed(N);
  thrust::gather(Index.begin(), Index.end(), Z.begin(), Reversed.begin());
  thrust::host_vector<double> Host = Reversed;
  bool Ok = true;
  for (int I = 0; I < N; ++I) {
    int J = N - 1 - I;
    Ok &= Host[I] == 2 * (2.0 * (1.0 + 0.25 * J) + 3.0);
  }
  check("sequence, fill, transform, for_each, gather", Ok);
  return finish();
}
