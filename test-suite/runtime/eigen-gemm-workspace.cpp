// Eigen's blocked matrix product (GEMM) packs its operands into workspace
// buffers chosen at run time between the caller's (null unless the
// product runs in parallel), a stack buffer aligned by hand
// (`(p + 15) & -16` on an over-allocated alloca) and, above 128 KiB, a
// heap block from Eigen's aligned_malloc. The engine refused the choice at
// -O0 ('a pointer that chooses between memory with derivatives and memory
// without'), and -O3 -march=x86-64-v3 stopped at the hand-aligned address
// ('an address computed from an integer'). The aligned address now takes its
// shadow from the alloca's, aligned_malloc is recognised as returning fresh
// memory (its shadow comes back from its augmented copy), and the caller's
// null workspace gets a null shadow with a run-time check. Small (stack)
// and large (heap) workspaces; reverse mode against the analytic gradient
// d/dA sum(A * B) = (row sums of B)^T, forward mode against reverse. B is
// passed as enzyme_dup with a zeroed shadow: at -O0 the two Maps share
// their constructor, and a Map over enzyme_const memory next to one over
// duplicated memory is still an error there (docs/reverse-mode.md).
// Under AddressSanitizer, -O0 code keeps aligned_malloc's result in a local
// with lifetime markers, which hid that it returns fresh memory (the run-time
// choice report stopped the program).
// RUN: %clangxx_enzyme -fenzyme -O0 -I/usr/include/eigen3 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 -I/usr/include/eigen3 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O3 -march=x86-64-v3 -I/usr/include/eigen3 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O0 -fsanitize=address,undefined -fno-sanitize-recover=all -I/usr/include/eigen3 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 -fsanitize=address,undefined -fno-sanitize-recover=all -I/usr/include/eigen3 %s -o %t && %t
#include "Inputs/check.h"

#include <Eigen/Dense>

extern "C" {
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

// sum over all entries of A * B, A = x (n x n, column-major), B = b.
static double productSum(const double *X, const double *B, int N) {
  Eigen::Map<const Eigen::MatrixXd> A(X, N, N), Bm(B, N, N);
  Eigen::MatrixXd C = A * Bm;
  return C.sum();
}

static void checkSize(int N) {
  std::vector<double> X(N * N), B(N * N), D(N * N, 0.0), DB(N * N, 0.0);
  for (int I = 0; I < N * N; ++I) {
    X[I] = std::sin(0.1 * I) + 0.5;
    B[I] = std::cos(0.07 * I);
  }
  __enzyme_autodiff((void *)productSum, enzyme_dup, X.data(), D.data(),
                    enzyme_dup, B.data(), DB.data(), N);
  // d/dA(i,k) = sum_j B(k,j): A is column-major, entry (i,k) at i + k N.
  int Wrong = 0;
  for (int K = 0; K < N; ++K) {
    double RowSum = 0;
    for (int J = 0; J < N; ++J)
      RowSum += B[K + J * N];
    for (int I = 0; I < N; ++I)
      if (!(std::fabs(D[I + K * N] - RowSum) <= 1e-9 * (1 + std::fabs(RowSum))))
        ++Wrong;
  }
  char Name[64];
  snprintf(Name, sizeof Name, "entries of d/dA wrong (n = %d)", N);
  check_close(Name, Wrong, 0, 0, 0);
  // One tangent, along the direction of entry (1, 2).
  std::vector<double> Dir(N * N, 0.0);
  Dir[1 + 2 * N] = 1;
  std::vector<double> NoDir(N * N, 0.0);
  double T = __enzyme_fwddiff((void *)productSum, enzyme_dup, X.data(),
                              Dir.data(), enzyme_dup, B.data(), NoDir.data(),
                              N);
  snprintf(Name, sizeof Name, "tangent vs gradient (n = %d)", N);
  check_close(Name, T, D[1 + 2 * N], 1e-12, 1e-12);
}

int main() {
  checkSize(8);   // workspace on the stack
  checkSize(200); // over 128 KiB: aligned_malloc
  return check_done();
}
