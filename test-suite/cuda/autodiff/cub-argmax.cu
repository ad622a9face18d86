// An argmax as Thrust's max_element computes it: a (value, index) pair per
// thread (a loop over the thread's elements), then cub::WarpReduce::Reduce
// of the pairs. CUB shuffles the pair as four 32-bit words: the double's
// two are its shuffle, the index's two stay integers. Before, the index's
// halves (loaded back from the locals the pairs are chosen through) were
// taken for a double's and the kernel was an error ("floats whose bits ...
// are moved as integers"). The gradient of the maximum is 1 at the argmax
// and 0 elsewhere; the tangent is the direction's value there.
// The same with (float, long) pairs, whose float word -O2 keeps in phis
// across the reduction's steps: its shuffle was not seen as the float's,
// and the kernel was the error above.
// At -O0, CUB shuffles the pairs one word at a time through memory; the
// engine unrolls the loop over the words (the float pair's padding word
// holds no float), and the double's two words stored next to each other
// become the double's shuffle. Before, -O0 was an error.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
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

// The larger value; the smaller index among equal values.
template <typename T> struct ArgMax {
  using Pair = cuda::std::tuple<T, long>;
  __device__ Pair operator()(const Pair &A, const Pair &B) const {
    T VA = cuda::std::get<0>(A), VB = cuda::std::get<0>(B);
    if (VA < VB)
      return B;
    if (VB < VA)
      return A;
    return cuda::std::get<1>(A) < cuda::std::get<1>(B) ? A : B;
  }
};

constexpr int N = 32 * 4;

// Y[0] = max of X, Y[1] = its index (one warp).
template <typename T> __device__ void model(const T *X, T *Y, int Count) {
  using Pair = cuda::std::tuple<T, long>;
  using Reduce = cub::WarpReduce<Pair>;
  __shared__ typename Reduce::TempStorage Storage;
  Pair P(X[threadIdx.x], long(threadIdx.x));
  for (int K = threadIdx.x + 32; K < Count; K += 32)
    P = ArgMax<T>()(P, Pair(X[K], long(K)));
  Pair Best = Reduce(Storage).Reduce(P, ArgMax<T>());
  if (threadIdx.x == 0) {
    Y[0] = cuda::std::get<0>(Best);
    Y[1] = T(cuda::std::get<1>(Best));
  }
}

template <typename T>
__global__ void gradient(const T *X, T *DX, T *Y, T *DY, int Count) {
  __enzyme_autodiff((void *)model<T>, enzyme_dup, X, DX, enzyme_dup, Y, DY,
                    enzyme_const, Count);
}

template <typename T>
__global__ void tangent(const T *X, const T *TX, T *Y, T *TY, int Count) {
  __enzyme_fwddiff((void *)model<T>, enzyme_dup, X, TX, enzyme_dup, Y, TY,
                   enzyme_const, Count);
}

template <typename T> static void run(const char *Type) {
  std::printf("%s pairs\n", Type);
  T *X, *DX, *TX, *Y, *DY, *TY;
  for (T **P : {&X, &DX, &TX})
    CUDA_CHECK(cudaMallocManaged(P, N * sizeof(T)));
  for (T **P : {&Y, &DY, &TY})
    CUDA_CHECK(cudaMallocManaged(P, 2 * sizeof(T)));
  int Best = 0;
  for (int I = 0; I < N; ++I) {
    X[I] = T(std::sin(0.7 * I + 0.5));
    DX[I] = 0;
    TX[I] = T(std::cos(I));
    if (X[I] > X[Best])
      Best = I;
  }
  DY[0] = 1;
  DY[1] = 0;
  gradient<T><<<1, 32>>>(X, DX, Y, DY, N);
  CUDA_CHECK(cudaDeviceSynchronize());
  check("primal: the maximum and its index", Y[0] == X[Best] && Y[1] == Best);
  bool ReverseOk = true;
  for (int I = 0; I < N; ++I)
    ReverseOk &= DX[I] == (I == Best ? 1 : 0);
  check("reverse mode: 1 at the argmax, 0 elsewhere", ReverseOk);
  tangent<T><<<1, 32>>>(X, TX, Y, TY, N);
  CUDA_CHECK(cudaDeviceSynchronize());
  checkClose("forward mode: the direction at the argmax", TY[0], TX[Best],
             0);
  for (T *P : {X, DX, TX, Y, DY, TY})
    CUDA_CHECK(cudaFree(P));
}

int main() {
  run<double>("double");
  run<float>("float");
  return finish();
}
