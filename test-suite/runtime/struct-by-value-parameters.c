// Structs passed by value: a `byval` pointer in the IR, the callee's own
// copy. As enzyme_const in both modes (ADBench's GMM passes its Wishart
// prior this way: 'a struct passed by value, which cannot be differentiated
// yet'), with a tangent struct (also by value) in forward mode, and as the
// argument of a callee inside differentiated code, whose fields carry
// derivatives. The callee may write its copy; the caller's struct stays as
// it was. Against analytic values.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 -fsanitize=address,undefined \
// RUN:   -fno-sanitize-recover=all %s -o %t -lm && %t
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

struct prior {
  double gamma, m;
  double w[4];
};

/* gamma * sum w_i x_i^2 + m; writes its own copy of p on the way. */
__attribute__((noinline)) double log_prior(struct prior p, const double *x) {
  double s = 0;
  for (int i = 0; i < 4; ++i) {
    p.w[i] *= x[i];
    s += p.w[i] * x[i];
  }
  return p.gamma * s + p.m;
}

/* A callee taking the struct by value, its fields computed from g. */
__attribute__((noinline)) double through_callee(const double *x, double g) {
  struct prior p = {g, g * g, {1, 2, 3, 4}};
  return 2 * log_prior(p, x);
}

int main(void) {
  double x[4] = {0.5, -1.0, 1.5, 2.0}, dx[4] = {0};
  struct prior p = {0.75, 1.25, {1, 2, 3, 4}};
  __enzyme_autodiff((void *)log_prior, enzyme_const, p, enzyme_dup, x, dx);
  for (int i = 0; i < 4; ++i)
    check_close("const prior, d/dx", dx[i], 2 * p.gamma * p.w[i] * x[i],
                RTOL_EXACT, ATOL_EXACT);
  check_close("the caller's struct is untouched", p.w[2], 3, 0, 0);

  /* Forward: the tangent of the struct, by value, along gamma and m. */
  struct prior dp = {1, 1, {0, 0, 0, 0}};
  double dxz[4] = {0};
  double s = 0;
  for (int i = 0; i < 4; ++i)
    s += p.w[i] * x[i] * x[i];
  check_close("struct tangent",
              __enzyme_fwddiff((void *)log_prior, enzyme_dup, p, dp,
                               enzyme_dup, x, dxz),
              s + 1, RTOL_EXACT, ATOL_EXACT);
  double v[4] = {1, 0, 0, 0};
  check_close("const struct, tangent along x0",
              __enzyme_fwddiff((void *)log_prior, enzyme_const, p, enzyme_dup,
                               x, v),
              2 * p.gamma * p.w[0] * x[0], RTOL_EXACT, ATOL_EXACT);

  /* d/dg 2 (g s + g^2) = 2 s + 4 g, and d/dx_i = 4 g w_i x_i. */
  double g = 0.6, dx2[4] = {0};
  double dg =
      __enzyme_autodiff((void *)through_callee, enzyme_dup, x, dx2, g);
  check_close("callee, d/dg", dg, 2 * s + 4 * g, RTOL_EXACT, ATOL_EXACT);
  for (int i = 0; i < 4; ++i)
    check_close("callee, d/dx", dx2[i], 4 * g * p.w[i] * x[i], RTOL_EXACT,
                ATOL_EXACT);
  return check_done();
}
