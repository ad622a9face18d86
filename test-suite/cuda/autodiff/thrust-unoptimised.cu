// Thrust in differentiated host code built without optimisation (-O0, a
// debug build): device vectors built from a host range and of a size
// (Thrust's uninitialized_fill kernel), fill, copies back to the host and
// reduce, with their kernels launched from Thrust's helpers. Before, the
// device compilation stopped ("the caller stores or reads derivatives
// through the pointer 'select_system' returns": a device_reference's
// assignment selects a pair of execution policies, references that have
// no shadow), and, past that, the host's copies were untyped at run time
// and the uninitialized_fill kernel's reverse wrote through a null
// shadow. Analytic gradients at -O0 and -O1, forward mode against them.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O1 %s -o %t.O1 && %t.O1 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O0 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// thrust::transform at -O0 compiles (CUB's kernel launches through a
// lambda its template invokes, kernel arguments moved with std::move), but
// stops at run time where a copy of CUB's kernel_arg union, a pointer whose
// shadow is not zero, cannot be typed: a clear stop, never a wrong gradient.
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 -DTRANSFORM %s -o %t.tr
// RUN: not --crash %t.tr 2>&1 | FileCheck %s --check-prefix=TRANSFORM
// TRANSFORM: enzyme: the derivative of 'cub::{{.*}}kernel_arg<double*>::kernel_arg({{.*}})' copied 16 bytes of memory with derivatives whose shadow is not zero
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/fill.h>
#include <thrust/reduce.h>
#include <thrust/transform.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const;

constexpr int N = 300;

struct Square {
  __host__ __device__ double operator()(double X) const { return X * X; }
};

// loss = x0 x1 + x2 + 0.5 (N - 5) + sum_{i>=5} x_i: the first five
// elements are overwritten with 0.5 by fill, W is zeros.
double loss(const double *X, int Count) {
  thrust::device_vector<double> D(X, X + Count), W(Count);
  double Front[3];
  thrust::copy(D.begin(), D.begin() + 3, Front);
  thrust::fill(D.begin(), D.begin() + 5, 0.5);
#ifdef TRANSFORM
  thrust::transform(D.begin(), D.end(), W.begin(), Square());
#endif
  double Sum = thrust::reduce(D.begin() + 5, D.end()) +
               thrust::reduce(W.begin(), W.end());
  return Front[0] * Front[1] + Front[2] + Sum;
}

int main() {
  double X[N], G[N] = {}, T[N];
  double Dot = 0;
  for (int I = 0; I < N; ++I) {
    X[I] = 0.25 + 0.01 * I;
    T[I] = std::cos(0.1 * I);
  }
  __enzyme_autodiff((void *)loss, enzyme_dup, X, G, enzyme_const, N);
  bool Ok = true;
  for (int I = 0; I < N; ++I) {
    double Expected = I == 0 ? X[1] : I == 1 ? X[0] : I == 2 ? 1 : I < 5 ? 0 : 1;
    Ok &= std::fabs(G[I] - Expected) <= 1e-12;
    Dot += Expected * T[I];
  }
  check("gradient", Ok);
  checkClose("tangent",
             __enzyme_fwddiff((void *)loss, enzyme_dup, X, T, enzyme_const, N),
             Dot, 1e-12);
  return finish();
}
