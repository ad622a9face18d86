// An argmax as Thrust's max_element computes it: a (value, index) pair per
// thread (a loop over the thread's elements), then cub::WarpReduce::Reduce
// of the pairs. CUB shuffles the pair as four 32-bit words: the double's
// two are its shuffle, the index's two stay integers. Before, the index's
// halves (loaded back from the locals the pairs are chosen through) were
// taken for a double's and the kernel was an error ("floats whose bits ...
// are moved as integers"). The gradient of the maximum is 1 at the argmax
// and 0 elsewhere; the tangent is the direction's value there.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O1 %s -o %t.O1 && %t.O1 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"

#include <cub/cub.cuh>
#include <cuda/std/tuple>

extern __device__ void __enzyme_autodiff(void *, ...);
extern __device__ void __enzyme_fwddiff(void *, ...);
__device__ int enzyme_dup, enzyme_const;

using Pair = cuda::std::tuple<double, long>;

// The larger value; the smaller index among equal values.
struct ArgMax {
  __device__ Pair operator()(const Pair &A, const Pair &B) const {
    double VA = cuda::std::get<0>(A), VB = cuda::std::get<0>(B);
    if (VA < VB)
      return B;
    if (VB < VA)
      return A;
    return cuda::std::get<1>(A) < cuda::std::get<1>(B) ? A : B;
  }
};

constexpr int N = 32 * 4;

// Y[0] = max of X, Y[1] = its index (one warp).
__device__ void model(const double *X, double *Y, int Count) {
  using Reduce = cub::WarpReduce<Pair>;
  __shared__ typename Reduce::TempStorage Storage;
  Pair P(X[threadIdx.x], long(threadIdx.x));
  for (int K = threadIdx.x + 32; K < Count; K += 32)
    P = ArgMax()(P, Pair(X[K], long(K)));
  Pair Best = Reduce(Storage).Reduce(P, ArgMax());
  if (threadIdx.x == 0) {
    Y[0] = cuda::std::get<0>(Best);
    Y[1] = double(cuda::std::get<1>(Best));
  }
}

__global__ void gradient(const double *X, double *DX, double *Y, double *DY,
                         int Count) {
  __enzyme_autodiff((void *)model, enzyme_dup, X, DX, enzyme_dup, Y, DY,
                    enzyme_const, Count);
}

__global__ void tangent(const double *X, const double *TX, double *Y,
                        double *TY, int Count) {
  __enzyme_fwddiff((void *)model, enzyme_dup, X, TX, enzyme_dup, Y, TY,
                   enzyme_const, Count);
}

int main() {
  double *X, *DX, *TX, *Y, *DY, *TY;
  for (double **P : {&X, &DX, &TX})
    CUDA_CHECK(cudaMallocManaged(P, N * sizeof(double)));
  for (double **P : {&Y, &DY, &TY})
    CUDA_CHECK(cudaMallocManaged(P, 2 * sizeof(double)));
  int Best = 0;
  for (int I = 0; I < N; ++I) {
    X[I] = std::sin(0.7 * I + 0.5);
    DX[I] = 0;
    TX[I] = std::cos(I);
    if (X[I] > X[Best])
      Best = I;
  }
  DY[0] = 1;
  DY[1] = 0;
  gradient<<<1, 32>>>(X, DX, Y, DY, N);
  CUDA_CHECK(cudaDeviceSynchronize());
  check("primal: the maximum and its index", Y[0] == X[Best] && Y[1] == Best);
  bool ReverseOk = true;
  for (int I = 0; I < N; ++I)
    ReverseOk &= DX[I] == (I == Best ? 1 : 0);
  check("reverse mode: 1 at the argmax, 0 elsewhere", ReverseOk);
  tangent<<<1, 32>>>(X, TX, Y, TY, N);
  CUDA_CHECK(cudaDeviceSynchronize());
  checkClose("forward mode: the direction at the argmax", TY[0], TX[Best],
             0);
  return finish();
}
