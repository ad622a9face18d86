// Forward mode of every function of the math table (the same declarative
// partials reverse mode uses: tangent = sum of df/dx_i * dx_i), each at a
// point inside its domain, against central finite differences and reverse
// mode of the same function; a few also against the analytic derivative.
// RUN: %clang_enzyme -fenzyme -O0 %s -o %t -lm && %t
// RUN: %clang_enzyme -fenzyme -O2 %s -o %t -lm && %t
#include "Inputs/check.h"

double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);

/* One unary function of x, through an inner expression so that the chain
 * rule is exercised too. */
#define UNARY(name, expr)                                                      \
  static double u_##name(double x) { return expr; }                           \
  static void t_##name(double x) {                                             \
    double t = __enzyme_fwddiff((void *)u_##name, x, 1.0);                     \
    double r = __enzyme_autodiff((void *)u_##name, x);                         \
    check_fd(#name, t, fd_diff1(u_##name, x));                                 \
    check_close(#name " (vs reverse)", t, r, 1e-12, 1e-14);                    \
  }

UNARY(sin, sin(2 * x))
UNARY(cos, cos(2 * x))
UNARY(tan, tan(x))
UNARY(asin, asin(x / 2))
UNARY(acos, acos(x / 2))
UNARY(atan, atan(3 * x))
UNARY(sinh, sinh(x))
UNARY(cosh, cosh(x))
UNARY(tanh, tanh(x))
UNARY(asinh, asinh(x))
UNARY(acosh, acosh(x + 1.5))
UNARY(atanh, atanh(x / 2))
UNARY(exp, exp(x))
UNARY(exp2, exp2(x))
UNARY(expm1, expm1(x))
UNARY(log, log(x))
UNARY(log2, log2(x))
UNARY(log10, log10(x))
UNARY(log1p, log1p(x))
UNARY(sqrt, sqrt(x))
UNARY(cbrt, cbrt(x))
UNARY(fabs, fabs(x - 2))
UNARY(erf, erf(x))
UNARY(erfc, erfc(x))
UNARY(lgamma, lgamma(x + 0.5))
UNARY(tgamma, tgamma(x + 0.5))
UNARY(powi, pow(x, 3.0))
UNARY(pow_const_base, pow(1.7, x))
UNARY(pow_both, pow(x, x))
UNARY(atan2, atan2(x, 1.0 - x * x))
UNARY(hypot, hypot(x, 2 * x + 1))
UNARY(fmin, fmin(x * x, 1.0))
UNARY(fmax, fmax(x * x, 1.0))
UNARY(fma, fma(x, x + 1, x * 3))
UNARY(copysign, copysign(x * x, -1.0))
UNARY(fmod, fmod(x * 5, 1.5))
UNARY(ldexp, ldexp(x * x, 3))
UNARY(floor, floor(x * 3) + x)
UNARY(ceil, ceil(x * 3) + x)
UNARY(round, round(x * 3) + x)
UNARY(trunc, trunc(x * 3) + x)
UNARY(floatfns, (double)(sinf((float)x) * expf((float)x)))

int main(void) {
  double x = 0.7;
  t_sin(x); t_cos(x); t_tan(x); t_asin(x); t_acos(x); t_atan(x);
  t_sinh(x); t_cosh(x); t_tanh(x); t_asinh(x); t_acosh(x); t_atanh(x);
  t_exp(x); t_exp2(x); t_expm1(x); t_log(x); t_log2(x); t_log10(x); t_log1p(x);
  t_sqrt(x); t_cbrt(x); t_fabs(x); t_erf(x); t_erfc(x); t_lgamma(x); t_tgamma(x);
  t_powi(x); t_pow_const_base(x); t_pow_both(x); t_atan2(x); t_hypot(x);
  t_fmin(x); t_fmax(x); t_fma(x); t_copysign(x); t_fmod(x); t_ldexp(x);
  t_floor(x); t_ceil(x); t_round(x); t_trunc(x);

  /* Analytic spot checks. */
  check_close("sin analytic", __enzyme_fwddiff((void *)u_sin, x, 1.0), 2 * cos(2 * x),
              RTOL_EXACT, ATOL_EXACT);
  check_close("pow_both analytic", __enzyme_fwddiff((void *)u_pow_both, x, 1.0),
              pow(x, x) * (log(x) + 1), RTOL_EXACT, ATOL_EXACT);
  check_close("lgamma analytic", __enzyme_fwddiff((void *)u_lgamma, x, 1.0),
              ref_digamma(x + 0.5), 1e-10, 1e-12);
  /* The float forms differentiate in float: a looser tolerance. */
  double tf = __enzyme_fwddiff((void *)u_floatfns, x, 1.0);
  check_close("float forms", tf, (cos(x) + sin(x)) * exp(x), 1e-6, 1e-6);
  return check_done();
}
