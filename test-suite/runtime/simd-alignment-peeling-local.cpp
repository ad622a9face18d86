// Code that chooses its accesses by the alignment of an address at run
// time: Eigen's vectorised loops over a Map peel elements one by one until
// the address is a multiple of 16 (32 with AVX), then use aligned packet
// loads and stores (movapd). On a local whose address is 8 modulo 16 the
// packets start at element 1; the shadow of the local was a calloc'd block
// (0 modulo 16), so the reverse pass's packet accesses at the same offsets
// of the shadow were misaligned and faulted (C++ fuzzer seed 486 at -O2).
// Shadows of locals now keep the local's address modulo 64. Reverse mode
// against the analytic gradient, forward mode against reverse.
// RUN: %clangxx_enzyme -fenzyme -O0 -I/usr/include/eigen3 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 -I/usr/include/eigen3 %s -o %t && %t
// With -march=x86-64-v3 the optimiser merges Eigen's evaluators (a scalar
// and the data pointer) into <4 x double> locals and takes the pointer out
// of the vector's bits, which has no shadow: a clear error now, where the
// derivatives through it were silently dropped
// (diagnostics/pointer-from-float-vector-bits.cpp).
#include "Inputs/check.h"

#include <Eigen/Dense>
#include <array>

extern "C" {
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

// A local array of 8 doubles, mapped from an offset of one element (so
// that its packets start at an odd element whatever the local's own
// alignment), updated in place with packet code and summed.
static double peeled(const double *X) {
  std::array<double, 9> Local{};
  for (int I = 0; I < 9; ++I)
    Local[I] = X[I % 3] * (I + 1);
  Eigen::Map<Eigen::VectorXd> Tail(Local.data() + 1, 8);
  Tail.array() = 0.5 * Tail.array() + 0.25 * Tail.array().square();
  return Tail.sum() + Local[0];
}

int main() {
  double X[3] = {0.7, -1.1, 0.4}, D[3] = {0, 0, 0};
  __enzyme_autodiff((void *)peeled, enzyme_dup, X, D);
  // d/dX[k] of sum over I = 1..8 with I % 3 == k of
  // 0.5 c X + 0.25 c^2 X^2 (c = I + 1), plus X[0] for I = 0.
  for (int K = 0; K < 3; ++K) {
    double Expect = K == 0 ? 1 : 0;
    for (int I = 1; I < 9; ++I)
      if (I % 3 == K) {
        double C = I + 1;
        Expect += 0.5 * C + 0.5 * C * C * X[K];
      }
    check_grad("peeled", D[K], Expect,
               fd_partial([](const double *P, void *) { return peeled(P); },
                          X, 3, K, nullptr));
    double Dir[3] = {0, 0, 0};
    Dir[K] = 1;
    double T = __enzyme_fwddiff((void *)peeled, enzyme_dup, X, Dir);
    check_close("peeled forward vs reverse", T, D[K], 1e-12, 1e-12);
  }
  return check_done();
}
