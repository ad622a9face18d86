// Functions written with Eigen types as parameters, differentiated with the
// objects themselves passed: a fixed-size Vector3d and Matrix3d (their
// coefficients inline, so the shadow is an object of the same type), and
// dynamic VectorXd and MatrixXd (a pointer to heap coefficients and sizes:
// the shadow is an object of the same size whose coefficients are the
// derivatives). An enzyme_const matrix beside them. Reverse mode against
// the analytic gradient and central finite differences, forward mode
// against reverse.
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

using Eigen::Matrix3d;
using Eigen::MatrixXd;
using Eigen::Vector3d;
using Eigen::VectorXd;

/* x^T A x + |x|^2, fixed size. */
__attribute__((noinline)) double fixedForm(const Vector3d &x,
                                           const Matrix3d &A) {
  return x.dot(A * x) + x.squaredNorm();
}

/* sum((B v) .* v) + sum(v), dynamic size. */
__attribute__((noinline)) double dynamicForm(const VectorXd &v,
                                             const MatrixXd &B) {
  VectorXd Bv = B * v;
  return Bv.cwiseProduct(v).sum() + v.sum();
}

static Matrix3d A_;
static MatrixXd B_;
static double fixedAt(const double *p, void *) {
  return fixedForm(Vector3d(p[0], p[1], p[2]), A_);
}
static double dynamicAt(const double *p, void *) {
  VectorXd v(B_.rows());
  for (int i = 0; i < v.size(); ++i)
    v(i) = p[i];
  return dynamicForm(v, B_);
}

int main() {
  Vector3d x(0.5, -1.0, 2.0), dx = Vector3d::Zero();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      A_(i, j) = 0.3 * i - 0.2 * j + (i == j);
  __enzyme_autodiff<void>((void *)fixedForm, enzyme_dup, &x, &dx,
                          enzyme_const, &A_);
  Vector3d g = (A_ + A_.transpose()) * x + 2 * x;
  for (int k = 0; k < 3; ++k) {
    check_grad("fixed: d/dx", dx(k), g(k),
               fd_partial(fixedAt, x.data(), 3, k, nullptr));
    Vector3d t = Vector3d::Zero();
    t(k) = 1;
    double d = __enzyme_fwddiff<double>((void *)fixedForm, enzyme_dup, &x, &t,
                                        enzyme_const, &A_);
    check_close("fixed: tangent", d, dx(k), RTOL_EXACT, ATOL_EXACT);
  }

  enum { N = 5 };
  VectorXd v(N), dv = VectorXd::Zero(N);
  B_.resize(N, N);
  for (int i = 0; i < N; ++i) {
    v(i) = 0.25 * i - 0.6;
    for (int j = 0; j < N; ++j)
      B_(i, j) = 0.1 * (i + 1) * (j % 3) - 0.05 * i;
  }
  __enzyme_autodiff<void>((void *)dynamicForm, enzyme_dup, &v, &dv,
                          enzyme_const, &B_);
  VectorXd h = (B_ + B_.transpose()) * v + VectorXd::Ones(N);
  for (int k = 0; k < N; ++k) {
    check_grad("dynamic: d/dv", dv(k), h(k),
               fd_partial(dynamicAt, v.data(), N, k, nullptr));
    VectorXd t = VectorXd::Zero(N);
    t(k) = 1;
    double d = __enzyme_fwddiff<double>((void *)dynamicForm, enzyme_dup, &v,
                                        &t, enzyme_const, &B_);
    check_close("dynamic: tangent", d, dv(k), RTOL_EXACT, ATOL_EXACT);
  }
  return check_done();
}
