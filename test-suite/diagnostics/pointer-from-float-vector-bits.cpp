// With AVX, the optimiser merges an Eigen evaluator (a double and a data
// pointer) into a <4 x double> local and takes the pointer back out of the
// vector's bits (bitcast, extractelement, inttoptr). Such a pointer has no
// shadow, and the derivatives of what is loaded through it were silently
// dropped (a wrong gradient without a word); both modes now stop with an
// error at the request.
// RUN: not %clangxx_enzyme -fenzyme -O2 -march=x86-64-v3 -I/usr/include/eigen3 -c %s -o %t.o 2>&1 | FileCheck %s %{no-crash} --implicit-check-not=error:
#include <Eigen/Dense>
#include <array>

extern "C" {
extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

static double peeled(const double *X) {
  std::array<double, 9> Local{};
  for (int I = 0; I < 9; ++I)
    Local[I] = X[I % 3] * (I + 1);
  Eigen::Map<Eigen::VectorXd> Tail(Local.data() + 1, 8);
  Tail.array() = 0.5 * Tail.array() + 0.25 * Tail.array().square();
  return Tail.sum() + Local[0];
}

void grad(double *X, double *D, double *Dir) {
  // CHECK: pointer-from-float-vector-bits.cpp:[[@LINE+1]]:3: error: cannot differentiate 'peeled(double const*)': cannot differentiate a pointer taken out of the bits of a value loaded from memory with derivatives
  __enzyme_autodiff((void *)peeled, enzyme_dup, X, D);
  // CHECK: pointer-from-float-vector-bits.cpp:[[@LINE+1]]:3: error: cannot differentiate 'peeled(double const*)': cannot differentiate a pointer taken out of the bits
  __enzyme_fwddiff((void *)peeled, enzyme_dup, X, Dir);
}
