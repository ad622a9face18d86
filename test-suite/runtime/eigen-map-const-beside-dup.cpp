// Eigen Maps over enzyme_const data beside Maps over duplicated data, at
// -O0 too, where nothing is inlined: the Map constructor's helper
// (cast_to_pointer_type) returns the constant data's pointer to a caller
// that keeps it in an object with a shadow, so the pointer gets a scratch
// shadow (zeroed memory at the same offsets) instead of none. Before, -O0
// stopped with "the caller stores or reads derivatives through the pointer
// ... returns, but it points to memory without derivatives". Reverse mode
// against the analytic gradient and central finite differences, forward
// mode against reverse. The fixed-size product also copies Eigen's Block
// at -O0 with a memcpy that spans an empty member (m_startCol) that clang
// lays out as bytes, which nothing types: the copy's shadows are zero, so
// it moves nothing whatever the bytes hold (it stopped the program with an
// untyped copy, also with every Map over duplicated data).
// RUN: %clangxx_enzyme -fenzyme -O0 -I/usr/include/eigen3 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 -I/usr/include/eigen3 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O3 -march=x86-64-v3 -I/usr/include/eigen3 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O0 -I/usr/include/eigen3 \
// RUN:   -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t && %t
#include "Inputs/check.h"
#include <Eigen/Dense>

template <typename R, typename... Args> R __enzyme_autodiff(Args...);
template <typename R, typename... Args> R __enzyme_fwddiff(Args...);
extern int enzyme_dup, enzyme_const;

using Eigen::Map;
using Eigen::Matrix3d;
using Eigen::MatrixXd;
using Eigen::Vector3d;
using Eigen::VectorXd;

enum { N = 4 };

/* w^T A x + |x|^2 + sum(w .* x), with w and A constant. */
__attribute__((noinline)) double objective(const double *wp, const double *ap,
                                           const double *xp, int n) {
  Map<const MatrixXd> A(ap, n, n);
  Map<const VectorXd> w(wp, n);
  Map<const VectorXd> x(xp, n);
  VectorXd y = A * x;
  return y.dot(w) + x.squaredNorm() + (w.array() * x.array()).sum();
}

/* The same with fixed sizes (3), the vector Map writable. */
__attribute__((noinline)) double fixedObjective(const double *wp,
                                                const double *ap, double *xp) {
  Map<const Matrix3d> A(ap);
  Map<const Vector3d> w(wp);
  Map<Vector3d> x(xp);
  Vector3d y = A * x;
  return y.dot(w) + x.squaredNorm() + (w.array() * x.array()).sum();
}

static const double *W_, *A_;
static double objectiveAt(const double *x, void *) {
  return objective(W_, A_, x, N);
}
static double fixedAt(const double *x, void *) {
  double copy[3] = {x[0], x[1], x[2]};
  return fixedObjective(W_, A_, copy);
}

int main() {
  double w[N], A[N * N], x[N], dx[N] = {0};
  for (int i = 0; i < N; ++i) {
    w[i] = 0.5 + 0.25 * i;
    x[i] = 0.3 * i - 0.4;
    for (int j = 0; j < N; ++j)
      A[i + N * j] = 0.1 * (i + 1) - 0.05 * j * j;
  }
  W_ = w;
  A_ = A;
  __enzyme_autodiff<void>((void *)objective, enzyme_const, w, enzyme_const, A,
                          enzyme_dup, x, dx, enzyme_const, (int)N);
  for (int k = 0; k < N; ++k) {
    // A^T w + 2 x + w (A column-major).
    double g = 2 * x[k] + w[k];
    for (int i = 0; i < N; ++i)
      g += A[i + N * k] * w[i];
    check_grad("d/dx", dx[k], g, fd_partial(objectiveAt, x, N, k, nullptr));
    double t[N] = {0};
    t[k] = 1;
    double d = __enzyme_fwddiff<double>((void *)objective, enzyme_const, w,
                                        enzyme_const, A, enzyme_dup, x, t,
                                        enzyme_const, (int)N);
    check_close("tangent", d, dx[k], RTOL_EXACT, ATOL_EXACT);
  }

  double A3[9], dx3[3] = {0};
  for (int i = 0; i < 9; ++i)
    A3[i] = 0.2 * i - 0.7;
  A_ = A3;
  __enzyme_autodiff<void>((void *)fixedObjective, enzyme_const, w,
                          enzyme_const, A3, enzyme_dup, x, dx3);
  for (int k = 0; k < 3; ++k) {
    double g = 2 * x[k] + w[k];
    for (int i = 0; i < 3; ++i)
      g += A3[i + 3 * k] * w[i];
    check_grad("fixed size: d/dx", dx3[k], g,
               fd_partial(fixedAt, x, 3, k, nullptr));
    double t[3] = {0};
    t[k] = 1;
    double d = __enzyme_fwddiff<double>((void *)fixedObjective, enzyme_const,
                                        w, enzyme_const, A3, enzyme_dup, x, t);
    check_close("fixed size: tangent", d, dx3[k], RTOL_EXACT, ATOL_EXACT);
  }
  return check_done();
}
