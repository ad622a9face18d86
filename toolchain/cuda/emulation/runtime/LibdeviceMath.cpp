//===- LibdeviceMath.cpp - libdevice math functions backed by libm --------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The libdevice functions that have a host libm counterpart (`__nv_sin`,
/// `__nv_powf`, `__nv_frexp`, `__nv_jn`, ...), the approximate `__nv_fast_*`
/// intrinsics (computed exactly here: more accurate than the device, never
/// less), classification, and the reciprocals and norms that CUDA adds
/// (`__nv_rsqrt`, `__nv_rcbrt`, `__nv_rhypot`, `__nv_norm3d`, ...).
///
/// Results are the host libm's, which, like CUDA's, are faithful to within a
/// few units in the last place; special values (NaN, infinities, signed
/// zeros) follow C99 Annex F, as CUDA's do. Where CUDA documents something
/// else, the function says so.
///
//===----------------------------------------------------------------------===//

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace {

template <typename To, typename From> To bitCast(From Value) {
  static_assert(sizeof(To) == sizeof(From), "sizes differ");
  To Result;
  std::memcpy(&Result, &Value, sizeof(To));
  return Result;
}

/// The wider type in which a norm of \p T values is summed: the squares of
/// any finite doubles (floats) neither overflow nor underflow in the x86
/// 80-bit long double (in double), so no scaling is needed.
template <typename T> struct Wider;
template <> struct Wider<float> { using Type = double; };
template <> struct Wider<double> { using Type = long double; };

/// The sum of the squares of \p Values, in the wider type. An infinite
/// element makes the sum infinite even when another one is NaN, as CUDA
/// documents for its norms (and C for hypot).
template <typename T>
typename Wider<T>::Type sumOfSquares(int Count, const T *Values) {
  using W = typename Wider<T>::Type;
  W Sum = 0;
  for (int I = 0; I < Count; ++I)
    if (std::isinf(Values[I]))
      return std::numeric_limits<W>::infinity();
  for (int I = 0; I < Count; ++I)
    Sum += static_cast<W>(Values[I]) * Values[I];
  return Sum;
}

template <typename T> T norm(int Count, const T *Values) {
  return static_cast<T>(std::sqrt(sumOfSquares(Count, Values)));
}

// rnorm(0) = +inf and rnorm(inf) = +0 fall out of the division.
template <typename T> T reciprocalNorm(int Count, const T *Values) {
  using W = typename Wider<T>::Type;
  return static_cast<T>(W(1) / std::sqrt(sumOfSquares(Count, Values)));
}

/// ilogb with CUDA's documented special values (glibc's on x86 agree).
template <typename T> int ilogbCuda(T A) {
  if (std::isnan(A) || A == 0)
    return INT_MIN;
  if (std::isinf(A))
    return INT_MAX;
  return std::ilogb(A);
}

} // namespace

extern "C" {

//===----------------------------------------------------------------------===//
// Trigonometric and hyperbolic functions
//===----------------------------------------------------------------------===//

double __nv_sin(double A) { return std::sin(A); }
float __nv_sinf(float A) { return std::sin(A); }
double __nv_cos(double A) { return std::cos(A); }
float __nv_cosf(float A) { return std::cos(A); }
double __nv_tan(double A) { return std::tan(A); }
float __nv_tanf(float A) { return std::tan(A); }
double __nv_asin(double A) { return std::asin(A); }
float __nv_asinf(float A) { return std::asin(A); }
double __nv_acos(double A) { return std::acos(A); }
float __nv_acosf(float A) { return std::acos(A); }
double __nv_atan(double A) { return std::atan(A); }
float __nv_atanf(float A) { return std::atan(A); }
double __nv_atan2(double A, double B) { return std::atan2(A, B); }
float __nv_atan2f(float A, float B) { return std::atan2(A, B); }
double __nv_sinh(double A) { return std::sinh(A); }
float __nv_sinhf(float A) { return std::sinh(A); }
double __nv_cosh(double A) { return std::cosh(A); }
float __nv_coshf(float A) { return std::cosh(A); }
double __nv_tanh(double A) { return std::tanh(A); }
float __nv_tanhf(float A) { return std::tanh(A); }
double __nv_asinh(double A) { return std::asinh(A); }
float __nv_asinhf(float A) { return std::asinh(A); }
double __nv_acosh(double A) { return std::acosh(A); }
float __nv_acoshf(float A) { return std::acosh(A); }
double __nv_atanh(double A) { return std::atanh(A); }
float __nv_atanhf(float A) { return std::atanh(A); }

void __nv_sincos(double A, double *S, double *C) {
  *S = std::sin(A);
  *C = std::cos(A);
}

void __nv_sincosf(float A, float *S, float *C) {
  *S = std::sin(A);
  *C = std::cos(A);
}

//===----------------------------------------------------------------------===//
// Exponentials and logarithms
//===----------------------------------------------------------------------===//

double __nv_exp(double A) { return std::exp(A); }
float __nv_expf(float A) { return std::exp(A); }
double __nv_exp2(double A) { return std::exp2(A); }
float __nv_exp2f(float A) { return std::exp2(A); }
double __nv_exp10(double A) { return ::exp10(A); }
float __nv_exp10f(float A) { return ::exp10f(A); }
double __nv_expm1(double A) { return std::expm1(A); }
float __nv_expm1f(float A) { return std::expm1(A); }
double __nv_log(double A) { return std::log(A); }
float __nv_logf(float A) { return std::log(A); }
double __nv_log2(double A) { return std::log2(A); }
float __nv_log2f(float A) { return std::log2(A); }
double __nv_log10(double A) { return std::log10(A); }
float __nv_log10f(float A) { return std::log10(A); }
double __nv_log1p(double A) { return std::log1p(A); }
float __nv_log1pf(float A) { return std::log1p(A); }
double __nv_logb(double A) { return std::logb(A); }
float __nv_logbf(float A) { return std::logb(A); }
int __nv_ilogb(double A) { return ilogbCuda(A); }
int __nv_ilogbf(float A) { return ilogbCuda(A); }
double __nv_pow(double A, double B) { return std::pow(A, B); }
float __nv_powf(float A, float B) { return std::pow(A, B); }

// The exponent as a double is exact for every int; the float version works
// in double, where the int exponent is also exact, and rounds once more.
double __nv_powi(double A, int B) {
  return std::pow(A, static_cast<double>(B));
}

float __nv_powif(float A, int B) {
  return static_cast<float>(
      std::pow(static_cast<double>(A), static_cast<double>(B)));
}

//===----------------------------------------------------------------------===//
// Roots, reciprocals and norms
//===----------------------------------------------------------------------===//

double __nv_sqrt(double A) { return std::sqrt(A); }
float __nv_sqrtf(float A) { return std::sqrt(A); }
double __nv_cbrt(double A) { return std::cbrt(A); }
float __nv_cbrtf(float A) { return std::cbrt(A); }
double __nv_hypot(double A, double B) { return std::hypot(A, B); }
float __nv_hypotf(float A, float B) { return std::hypot(A, B); }

// The reciprocals are computed in a wider type and rounded once, which is
// within half an ulp in all but rare cases. rsqrt(-0) = -inf and
// rcbrt(+-0) = +-inf, rcbrt(+-inf) = +-0, as CUDA documents.
double __nv_rsqrt(double A) {
  return static_cast<double>(1.0L / std::sqrt(static_cast<long double>(A)));
}

float __nv_rsqrtf(float A) {
  return static_cast<float>(1.0 / std::sqrt(static_cast<double>(A)));
}

double __nv_rcbrt(double A) {
  return static_cast<double>(1.0L / std::cbrt(static_cast<long double>(A)));
}

float __nv_rcbrtf(float A) {
  return static_cast<float>(1.0 / std::cbrt(static_cast<double>(A)));
}

double __nv_rhypot(double A, double B) {
  const double Values[] = {A, B};
  return reciprocalNorm(2, Values);
}

float __nv_rhypotf(float A, float B) {
  const float Values[] = {A, B};
  return reciprocalNorm(2, Values);
}

double __nv_norm3d(double A, double B, double C) {
  const double Values[] = {A, B, C};
  return norm(3, Values);
}

float __nv_norm3df(float A, float B, float C) {
  const float Values[] = {A, B, C};
  return norm(3, Values);
}

double __nv_norm4d(double A, double B, double C, double D) {
  const double Values[] = {A, B, C, D};
  return norm(4, Values);
}

float __nv_norm4df(float A, float B, float C, float D) {
  const float Values[] = {A, B, C, D};
  return norm(4, Values);
}

double __nv_rnorm3d(double A, double B, double C) {
  const double Values[] = {A, B, C};
  return reciprocalNorm(3, Values);
}

float __nv_rnorm3df(float A, float B, float C) {
  const float Values[] = {A, B, C};
  return reciprocalNorm(3, Values);
}

double __nv_rnorm4d(double A, double B, double C, double D) {
  const double Values[] = {A, B, C, D};
  return reciprocalNorm(4, Values);
}

float __nv_rnorm4df(float A, float B, float C, float D) {
  const float Values[] = {A, B, C, D};
  return reciprocalNorm(4, Values);
}

double __nv_norm(int Dim, const double *Values) { return norm(Dim, Values); }
float __nv_normf(int Dim, const float *Values) { return norm(Dim, Values); }

double __nv_rnorm(int Dim, const double *Values) {
  return reciprocalNorm(Dim, Values);
}

float __nv_rnormf(int Dim, const float *Values) {
  return reciprocalNorm(Dim, Values);
}

// PTX `rcp.approx.ftz.f64`: a reciprocal from, and to, only the upper 32
// bits of the double (sign, exponent and 20 mantissa bits; the lower 32
// result bits are zero), with subnormal inputs and results flushed to zero.
double __nv_rcp64h(double A) {
  if (std::isnan(A))
    return A;
  double High = bitCast<double>(bitCast<uint64_t>(A) & 0xffffffff00000000u);
  if (std::fpclassify(High) == FP_SUBNORMAL)
    High = std::copysign(0.0, High);
  double R = 1.0 / High;
  if (std::fpclassify(R) == FP_SUBNORMAL)
    return std::copysign(0.0, R);
  return bitCast<double>(bitCast<uint64_t>(R) & 0xffffffff00000000u);
}

//===----------------------------------------------------------------------===//
// Error and gamma functions
//===----------------------------------------------------------------------===//

double __nv_erf(double A) { return std::erf(A); }
float __nv_erff(float A) { return std::erf(A); }
double __nv_erfc(double A) { return std::erfc(A); }
float __nv_erfcf(float A) { return std::erfc(A); }
double __nv_tgamma(double A) { return std::tgamma(A); }
float __nv_tgammaf(float A) { return std::tgamma(A); }

// The reentrant versions: lgamma would write the global signgam from every
// emulated thread at once.
double __nv_lgamma(double A) {
  int Sign;
  return ::lgamma_r(A, &Sign);
}

float __nv_lgammaf(float A) {
  int Sign;
  return ::lgammaf_r(A, &Sign);
}

//===----------------------------------------------------------------------===//
// Bessel functions of the first and second kinds
//===----------------------------------------------------------------------===//

double __nv_j0(double A) { return ::j0(A); }
float __nv_j0f(float A) { return ::j0f(A); }
double __nv_j1(double A) { return ::j1(A); }
float __nv_j1f(float A) { return ::j1f(A); }
double __nv_jn(int N, double A) { return ::jn(N, A); }
float __nv_jnf(int N, float A) { return ::jnf(N, A); }
double __nv_y0(double A) { return ::y0(A); }
float __nv_y0f(float A) { return ::y0f(A); }
double __nv_y1(double A) { return ::y1(A); }
float __nv_y1f(float A) { return ::y1f(A); }
double __nv_yn(int N, double A) { return ::yn(N, A); }
float __nv_ynf(int N, float A) { return ::ynf(N, A); }

//===----------------------------------------------------------------------===//
// Rounding to integral values, remainders and decomposition
//===----------------------------------------------------------------------===//

double __nv_ceil(double A) { return std::ceil(A); }
float __nv_ceilf(float A) { return std::ceil(A); }
double __nv_floor(double A) { return std::floor(A); }
float __nv_floorf(float A) { return std::floor(A); }
double __nv_trunc(double A) { return std::trunc(A); }
float __nv_truncf(float A) { return std::trunc(A); }
double __nv_round(double A) { return std::round(A); }
float __nv_roundf(float A) { return std::round(A); }
// The device has no dynamic rounding mode: these round to nearest even,
// which is the host's mode whenever device code runs.
double __nv_rint(double A) { return std::rint(A); }
float __nv_rintf(float A) { return std::rint(A); }
double __nv_nearbyint(double A) { return std::nearbyint(A); }
float __nv_nearbyintf(float A) { return std::nearbyint(A); }

double __nv_fmod(double A, double B) { return std::fmod(A, B); }
float __nv_fmodf(float A, float B) { return std::fmod(A, B); }
double __nv_remainder(double A, double B) { return std::remainder(A, B); }
float __nv_remainderf(float A, float B) { return std::remainder(A, B); }

double __nv_remquo(double A, double B, int *Quo) {
  return std::remquo(A, B, Quo);
}

float __nv_remquof(float A, float B, int *Quo) {
  return std::remquo(A, B, Quo);
}

double __nv_modf(double A, double *Integral) { return std::modf(A, Integral); }
float __nv_modff(float A, float *Integral) { return std::modf(A, Integral); }
double __nv_frexp(double A, int *Exp) { return std::frexp(A, Exp); }
float __nv_frexpf(float A, int *Exp) { return std::frexp(A, Exp); }
double __nv_ldexp(double A, int Exp) { return std::ldexp(A, Exp); }
float __nv_ldexpf(float A, int Exp) { return std::ldexp(A, Exp); }
double __nv_scalbn(double A, int Exp) { return std::scalbn(A, Exp); }
float __nv_scalbnf(float A, int Exp) { return std::scalbn(A, Exp); }

//===----------------------------------------------------------------------===//
// Sign, magnitude, comparison and fused multiply-add
//===----------------------------------------------------------------------===//

double __nv_fabs(double A) { return std::fabs(A); }
float __nv_fabsf(float A) { return std::fabs(A); }
double __nv_copysign(double A, double B) { return std::copysign(A, B); }
float __nv_copysignf(float A, float B) { return std::copysign(A, B); }
double __nv_fdim(double A, double B) { return std::fdim(A, B); }
float __nv_fdimf(float A, float B) { return std::fdim(A, B); }
double __nv_fmax(double A, double B) { return std::fmax(A, B); }
float __nv_fmaxf(float A, float B) { return std::fmax(A, B); }
double __nv_fmin(double A, double B) { return std::fmin(A, B); }
float __nv_fminf(float A, float B) { return std::fmin(A, B); }
double __nv_nextafter(double A, double B) { return std::nextafter(A, B); }
float __nv_nextafterf(float A, float B) { return std::nextafter(A, B); }
double __nv_fma(double A, double B, double C) { return std::fma(A, B, C); }
float __nv_fmaf(float A, float B, float C) { return std::fma(A, B, C); }

// Clamps to [+0, 1]; NaN gives +0 (PTX `.sat`).
float __nv_saturatef(float A) {
  if (!(A > 0))
    return 0.0f;
  return A < 1 ? A : 1.0f;
}

//===----------------------------------------------------------------------===//
// Classification and NaN construction
//===----------------------------------------------------------------------===//

int __nv_isnand(double A) { return std::isnan(A); }
int __nv_isnanf(float A) { return std::isnan(A); }
int __nv_isinfd(double A) { return std::isinf(A); }
int __nv_isinff(float A) { return std::isinf(A); }
int __nv_isfinited(double A) { return std::isfinite(A); }
int __nv_finitef(float A) { return std::isfinite(A); }
int __nv_signbitd(double A) { return std::signbit(A); }
int __nv_signbitf(float A) { return std::signbit(A); }

double __nv_nan(const signed char *Tag) {
  return std::nan(reinterpret_cast<const char *>(Tag));
}

float __nv_nanf(const signed char *Tag) {
  return std::nanf(reinterpret_cast<const char *>(Tag));
}

//===----------------------------------------------------------------------===//
// Fast approximate intrinsics (__sinf, __expf, __fdividef, ...)
//===----------------------------------------------------------------------===//

float __nv_fast_sinf(float A) { return std::sin(A); }
float __nv_fast_cosf(float A) { return std::cos(A); }
float __nv_fast_tanf(float A) { return std::tan(A); }
float __nv_fast_expf(float A) { return std::exp(A); }
float __nv_fast_exp10f(float A) { return ::exp10f(A); }
float __nv_fast_logf(float A) { return std::log(A); }
float __nv_fast_log2f(float A) { return std::log2(A); }
float __nv_fast_log10f(float A) { return std::log10(A); }
float __nv_fast_powf(float A, float B) { return std::pow(A, B); }

void __nv_fast_sincosf(float A, float *S, float *C) {
  *S = std::sin(A);
  *C = std::cos(A);
}

// CUDA documents that __fdividef(x, y) is 0 for 2^126 < |y| < 2^128 and
// NaN when x is also infinite (it multiplies by a reciprocal that flushes
// to zero); elsewhere it is the quotient.
float __nv_fast_fdividef(float A, float B) {
  if (std::fabs(B) > 0x1p126f && std::isfinite(B))
    return A * std::copysign(0.0f, B);
  return A / B;
}

} // extern "C"
