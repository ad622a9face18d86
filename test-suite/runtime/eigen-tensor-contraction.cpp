// Eigen's unsupported Tensor module: TensorMap over user arrays, a
// contraction (a matrix product written as A.contract(B, {(1, 0)})), an
// element-wise product and full reductions to rank-0 tensors. Reverse mode
// against the analytic gradient and central finite differences, forward
// mode against reverse.
// At -O0 the evaluators' shared DefaultDevice::get(T*) is called once on
// memory with derivatives and once without (it stopped with 'the caller
// stores or reads derivatives through the pointer ... returns'; now a
// scratch shadow), and the dimensions are copied through std::array's
// operator[], whose element type the type analysis reads from the address
// that _S_ref returns (it stopped with an untyped copy).
// RUN: %clangxx_enzyme -fenzyme -O0 -I/usr/include/eigen3 %s -o %t && %t
// With ASan and UBSan at -O0 a function returning a pointer had no exit
// block (no return instruction), and the engine crashed looking for the
// return that carries the pointer's shadow.
// RUN: %clangxx_enzyme -fenzyme -O0 -I/usr/include/eigen3 \
// RUN:   -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 -I/usr/include/eigen3 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O3 -march=x86-64-v3 -I/usr/include/eigen3 %s -o %t && %t
#include "Inputs/check.h"

#include <unsupported/Eigen/CXX11/Tensor>

extern "C" {
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

enum { I = 3, K = 4, J = 2 };

// sum over i, j of (A B)(i, j) plus the sum of A's squares; A is I x K,
// B is K x J, both column-major.
static double contract(const double *X) {
  Eigen::TensorMap<Eigen::Tensor<const double, 2>> A(X, I, K),
      B(X + I * K, K, J);
  Eigen::array<Eigen::IndexPair<int>, 1> Dims = {Eigen::IndexPair<int>(1, 0)};
  Eigen::Tensor<double, 2> C = A.contract(B, Dims);
  Eigen::Tensor<double, 0> S = C.sum();
  Eigen::Tensor<double, 0> Q = (A * A).sum();
  return S() + Q();
}

static double contractFd(const double *X, void *) { return contract(X); }

int main() {
  enum { N = I * K + K * J };
  double X[N], D[N] = {0};
  for (int P = 0; P < N; ++P)
    X[P] = 0.1 * P + 0.3 * std::sin(1.3 * P);
  __enzyme_autodiff((void *)contract, enzyme_dup, X, D);
  const double *A = X, *B = X + I * K;
  for (int P = 0; P < N; ++P) {
    double Expect = 0;
    if (P < I * K) { // A(i, k): the k-th row sum of B, plus 2 A(i, k)
      int Kk = P / I;
      for (int Jj = 0; Jj < J; ++Jj)
        Expect += B[Kk + K * Jj];
      Expect += 2 * A[P];
    } else { // B(k, j): the k-th column sum of A
      int Kk = (P - I * K) % K;
      for (int Ii = 0; Ii < I; ++Ii)
        Expect += A[Ii + I * Kk];
    }
    check_grad("contract", D[P], Expect, fd_partial(contractFd, X, N, P, 0));
    double Dir[N] = {0};
    Dir[P] = 1;
    double T = __enzyme_fwddiff((void *)contract, enzyme_dup, X, Dir);
    check_close("contract forward vs reverse", T, D[P], 1e-12, 1e-12);
  }
  return check_done();
}
