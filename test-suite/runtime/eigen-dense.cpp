// Eigen 3.4 (Debian's libeigen3-dev) inside differentiated code: fixed-size
// and dynamic matrices and vectors over user arrays (Map), products
// (matrix-vector and matrix-matrix, with noalias()), transpose(), dot,
// squaredNorm, sum, element-wise products; Eigen's packet code (SSE, AVX
// and its horizontal adds with -march) and, for dynamic products, its
// blocked GEMM with workspace buffers. Reverse-mode gradients against
// central finite differences; forward-mode tangents against the gradient.
// The GEMM kernel broadcasts the packed right-hand side with SSE2's
// integer shuffle (_mm_shuffle_epi32: shufflevector <4 x i32> between a
// load and a bitcast to <2 x double>); its derivatives were silently zero
// (runtime/simd-integer-shuffle-of-doubles.c).
// At -O0 and with -march=x86-64-v3 the GEMM's workspace is a choice
// (GeneralMatrixMatrix.h:166) between the caller's buffer, a stack buffer
// aligned by hand as an integer, and aligned_malloc's block; both builds
// stopped there before (runtime/eigen-gemm-workspace.cpp).
// RUN: %clangxx_enzyme -fenzyme -O0 -I/usr/include/eigen3 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O3 -march=x86-64-v3 -I/usr/include/eigen3 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 -I/usr/include/eigen3 %s -o %t && %t
// Under UBSan's alignment checks Eigen's GEMM helpers are not inlined, and
// the packed right-hand side moved as <4 x i32> reached the caller's packet
// through memory: d/dB was silently wrong (simd-integer-shuffle-through-
// memory.c).
// RUN: %clangxx_enzyme -fenzyme -O2 -I/usr/include/eigen3 \
// RUN:   -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t && %t
// With AVX the same helpers keep their 32-byte packets in locals (align 32)
// whose shadows were calloc's, 16-byte aligned: the reverse pass's vmovapd
// on them faulted. Shadows of over-aligned locals and blocks are aligned as
// the primal is (ir/shadow-of-overaligned-alloca.ll).
// RUN: %clangxx_enzyme -fenzyme -O2 -march=x86-64-v3 -I/usr/include/eigen3 \
// RUN:   -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t && %t
#include "Inputs/check.h"
#include <Eigen/Dense>

template <typename R, typename... Args> R __enzyme_autodiff(Args...);
template <typename R, typename... Args> R __enzyme_fwddiff(Args...);
extern int enzyme_dup, enzyme_const;

using Eigen::Matrix3d;
using Eigen::MatrixXd;
using Eigen::Vector3d;
using Eigen::VectorXd;

constexpr int N = 7;

/* Fixed size: x^T A x + |A x|^2 + sum(x .* x) + (A^T x)_1. */
__attribute__((noinline)) double fixed_size(const double *xp,
                                            const double *ap) {
  Eigen::Map<const Vector3d> x(xp);
  Eigen::Map<const Matrix3d> A(ap);
  Vector3d y = A * x;
  return x.dot(y) + y.squaredNorm() + x.cwiseProduct(x).sum() +
         (A.transpose() * x)(1);
}

/* Dynamic size: products with noalias, a matrix-matrix product, sums. */
__attribute__((noinline)) double dynamic_size(const double *xp,
                                              const double *ap, int n) {
  Eigen::Map<const VectorXd> x(xp, n);
  Eigen::Map<const MatrixXd> A(ap, n, n);
  VectorXd y(n);
  y.noalias() = A * x;
  MatrixXd B = A * A.transpose();
  return x.dot(y) + y.squaredNorm() + (B * x).sum() +
         (A.array() * A.array()).sum() * 0.1;
}

static double fixed_x(const double *x, void *ctx) {
  return fixed_size(x, (const double *)ctx);
}
static double fixed_a(const double *a, void *ctx) {
  return fixed_size((const double *)ctx, a);
}
static const double *g_a;
static double dynamic_x(const double *x, void *ctx) {
  (void)ctx;
  return dynamic_size(x, g_a, N);
}
static const double *g_x;
static double dynamic_a(const double *a, void *ctx) {
  (void)ctx;
  return dynamic_size(g_x, a, N);
}

int main() {
  double x[3] = {0.3, -0.7, 1.1}, a[9];
  for (int i = 0; i < 9; ++i)
    a[i] = 0.1 * i - 0.35;
  double dx[3] = {}, da[9] = {};
  __enzyme_autodiff<void>((void *)fixed_size, enzyme_dup, x, dx, enzyme_dup, a,
                          da);
  for (int i = 0; i < 3; ++i) {
    check_fd("fixed d/dx", dx[i], fd_partial(fixed_x, x, 3, i, a));
    double v[3] = {}, va[9] = {};
    v[i] = 1;
    check_close("fixed tangent = gradient",
                __enzyme_fwddiff<double>((void *)fixed_size, enzyme_dup, x, v,
                                         enzyme_dup, a, va),
                dx[i], 1e-11, 1e-12);
  }
  for (int i = 0; i < 9; ++i)
    check_fd("fixed d/dA", da[i], fd_partial(fixed_a, a, 9, i, x));

  double X[N], A[N * N], dX[N] = {}, dA[N * N] = {};
  for (int i = 0; i < N; ++i)
    X[i] = 0.2 * i - 0.3;
  for (int i = 0; i < N * N; ++i)
    A[i] = 0.05 * i - 0.4 + 0.01 * (i % 5);
  g_a = A;
  g_x = X;
  __enzyme_autodiff<void>((void *)dynamic_size, enzyme_dup, X, dX, enzyme_dup,
                          A, dA, enzyme_const, N);
  for (int i = 0; i < N; ++i) {
    check_fd("dynamic d/dx", dX[i], fd_partial(dynamic_x, X, N, i, nullptr));
    double v[N] = {}, va[N * N] = {};
    v[i] = 1;
    check_close("dynamic tangent = gradient",
                __enzyme_fwddiff<double>((void *)dynamic_size, enzyme_dup, X,
                                         v, enzyme_dup, A, va, enzyme_const, N),
                dX[i], 1e-11, 1e-12);
  }
  for (int i = 0; i < N * N; i += 3)
    check_fd("dynamic d/dA", dA[i], fd_partial(dynamic_a, A, N * N, i, nullptr));
  return check_done();
}
