//===- libdevice-check.cpp - Checks the emulated libdevice functions ------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
//
// Calls a sample of every family of the `__nv_*` functions that the CUDA
// emulation runtime defines (toolchain/cuda/emulation/runtime/Libdevice*.cpp)
// and compares the results with the host libm, with exact analytic values, or
// with references computed another way (wider precision, exact integer
// arithmetic, sign-of-error tests with fma). Prints `PASS name` or
// `FAIL name got ... expected ...` per check, then `all N checks passed` or
// `N of M checks failed` (and exits 1).
//
//===----------------------------------------------------------------------===//

// The declarations are clang's own, so the signatures cannot drift. The SIMD
// functions are declared only for CUDA 9.0 and 9.1.
#define __DEVICE__
#define CUDA_VERSION 9000
#include <__clang_cuda_libdevice_declares.h>

#include <algorithm>
#include <cfenv>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>

namespace {

int Checks = 0;
int Failures = 0;

/// Hides a value from the optimizer, so that references are computed at run
/// time by the same libm as the runtime's.
template <typename T> T opaque(T X) {
  volatile T V = X;
  return V;
}

std::string show(double X) {
  char Buffer[64];
  std::snprintf(Buffer, sizeof(Buffer), "%a (%.17g)", X, X);
  return Buffer;
}

std::string show(float X) {
  char Buffer[64];
  std::snprintf(Buffer, sizeof(Buffer), "%af (%.9g)", static_cast<double>(X),
                static_cast<double>(X));
  return Buffer;
}

template <typename T>
typename std::enable_if<std::is_integral<T>::value, std::string>::type
show(T X) {
  char Buffer[64];
  if (std::is_signed<T>::value)
    std::snprintf(Buffer, sizeof(Buffer), "%lld (0x%llx)",
                  static_cast<long long>(X),
                  static_cast<unsigned long long>(X));
  else
    std::snprintf(Buffer, sizeof(Buffer), "%llu (0x%llx)",
                  static_cast<unsigned long long>(X),
                  static_cast<unsigned long long>(X));
  return Buffer;
}

void report(const std::string &Name, bool Ok, const std::string &Got,
            const std::string &Expected) {
  ++Checks;
  if (Ok) {
    std::printf("PASS %s\n", Name.c_str());
    return;
  }
  ++Failures;
  std::printf("FAIL %s got %s expected %s\n", Name.c_str(), Got.c_str(),
              Expected.c_str());
}

template <typename T> bool identical(T A, T B) {
  if (std::isnan(A) || std::isnan(B))
    return std::isnan(A) && std::isnan(B);
  return std::memcmp(&A, &B, sizeof(T)) == 0;
}

/// Exact equality; floating-point values must match bit for bit (so the sign
/// of a zero counts), except that any NaN matches any NaN.
template <typename T, typename U>
void same(const std::string &Name, T Got, U Expected) {
  static_assert(std::is_same<T, U>::value, "compare values of one type");
  bool Ok;
  if constexpr (std::is_floating_point<T>::value)
    Ok = identical(Got, Expected);
  else
    Ok = Got == Expected;
  report(Name, Ok, show(Got), show(Expected));
}

/// A unit in the last place of T at \p X (the subnormal spacing below the
/// normal range, including at zero).
template <typename T> long double ulpOf(long double X) {
  const int Digits = std::numeric_limits<T>::digits;
  const int MinExponent = std::numeric_limits<T>::min_exponent - 1;
  int Exponent = X == 0 ? MinExponent : std::ilogb(X);
  if (Exponent < MinExponent)
    Exponent = MinExponent;
  return std::ldexp(1.0L, Exponent - (Digits - 1));
}

/// The distance of \p Got from \p Exact in units of the last place of T at
/// \p Exact.
template <typename T> long double ulpsAway(T Got, long double Exact) {
  return std::fabs(static_cast<long double>(Got) - Exact) / ulpOf<T>(Exact);
}

/// \p Got within \p MaxUlps of the reference \p Exact. Infinite, zero and NaN
/// references must be met exactly.
template <typename T>
void near(const std::string &Name, T Got, long double Exact, double MaxUlps) {
  T Rounded = static_cast<T>(Exact);
  if (std::isnan(Exact) || std::isinf(Rounded) || Exact == 0) {
    same(Name, Got, Rounded);
    return;
  }
  long double Ulps = std::isfinite(Got) ? ulpsAway(Got, Exact) : 1e30L;
  char Buffer[64];
  std::snprintf(Buffer, sizeof(Buffer), " (%.3Lg ulps, at most %g)", Ulps,
                MaxUlps);
  report(Name, Ulps <= MaxUlps, show(Got) + Buffer, show(Rounded));
}

std::string call(const char *Function, double X) {
  char Buffer[96];
  std::snprintf(Buffer, sizeof(Buffer), "%s(%.17g)", Function, X);
  return Buffer;
}

constexpr double Inf = HUGE_VAL;
constexpr float InfF = HUGE_VALF;
const double NaN = std::nan("");
const float NaNF = std::nanf("");

//===----------------------------------------------------------------------===//
// libm wrappers
//===----------------------------------------------------------------------===//

#define SAME1(F, REF, X) same(#F "(" #X ")", F(opaque(X)), REF(opaque(X)))
#define SAME2(F, REF, X, Y)                                                    \
  same(#F "(" #X ", " #Y ")", F(opaque(X), opaque(Y)),                         \
       REF(opaque(X), opaque(Y)))

void checkLibmWrappers() {
  SAME1(__nv_sin, std::sin, 0.7);
  SAME1(__nv_sinf, std::sin, 0.7f);
  SAME1(__nv_cos, std::cos, 2.5);
  SAME1(__nv_cosf, std::cos, 2.5f);
  SAME1(__nv_tan, std::tan, -1.2);
  SAME1(__nv_tanf, std::tan, -1.2f);
  SAME1(__nv_asin, std::asin, 0.3);
  SAME1(__nv_asinf, std::asin, 0.3f);
  SAME1(__nv_acos, std::acos, -0.4);
  SAME1(__nv_acosf, std::acos, -0.4f);
  SAME1(__nv_atan, std::atan, 3.0);
  SAME1(__nv_atanf, std::atan, 3.0f);
  SAME2(__nv_atan2, std::atan2, -1.0, -2.0);
  SAME2(__nv_atan2f, std::atan2, -1.0f, -2.0f);
  SAME1(__nv_sinh, std::sinh, 1.5);
  SAME1(__nv_sinhf, std::sinh, 1.5f);
  SAME1(__nv_cosh, std::cosh, -2.0);
  SAME1(__nv_coshf, std::cosh, -2.0f);
  SAME1(__nv_tanh, std::tanh, 0.5);
  SAME1(__nv_tanhf, std::tanh, 0.5f);
  SAME1(__nv_asinh, std::asinh, 2.0);
  SAME1(__nv_asinhf, std::asinh, 2.0f);
  SAME1(__nv_acosh, std::acosh, 1.7);
  SAME1(__nv_acoshf, std::acosh, 1.7f);
  SAME1(__nv_atanh, std::atanh, 0.3);
  SAME1(__nv_atanhf, std::atanh, 0.3f);
  SAME1(__nv_exp, std::exp, 1.3);
  SAME1(__nv_expf, std::exp, 1.3f);
  SAME1(__nv_exp2, std::exp2, 0.3);
  SAME1(__nv_exp2f, std::exp2, 0.3f);
  SAME1(__nv_exp10, ::exp10, -1.5);
  SAME1(__nv_exp10f, ::exp10f, -1.5f);
  SAME1(__nv_expm1, std::expm1, 1e-3);
  SAME1(__nv_expm1f, std::expm1, 1e-3f);
  SAME1(__nv_log, std::log, 10.0);
  SAME1(__nv_logf, std::log, 10.0f);
  SAME1(__nv_log2, std::log2, 10.0);
  SAME1(__nv_log2f, std::log2, 10.0f);
  SAME1(__nv_log10, std::log10, 7.0);
  SAME1(__nv_log10f, std::log10, 7.0f);
  SAME1(__nv_log1p, std::log1p, 1e-5);
  SAME1(__nv_log1pf, std::log1p, 1e-5f);
  SAME1(__nv_logb, std::logb, 100.0);
  SAME1(__nv_logbf, std::logb, 100.0f);
  SAME2(__nv_pow, std::pow, 2.5, -1.75);
  SAME2(__nv_powf, std::pow, 2.5f, -1.75f);
  SAME1(__nv_sqrt, std::sqrt, 2.0);
  SAME1(__nv_sqrtf, std::sqrt, 2.0f);
  SAME1(__nv_cbrt, std::cbrt, -10.0);
  SAME1(__nv_cbrtf, std::cbrt, -10.0f);
  SAME2(__nv_hypot, std::hypot, 1e200, 1e200);
  SAME2(__nv_hypotf, std::hypot, 1e30f, 1e30f);
  SAME1(__nv_erf, std::erf, 0.8);
  SAME1(__nv_erff, std::erf, 0.8f);
  SAME1(__nv_erfc, std::erfc, 5.0);
  SAME1(__nv_erfcf, std::erfc, 5.0f);
  SAME1(__nv_tgamma, std::tgamma, 4.5);
  SAME1(__nv_tgammaf, std::tgamma, 4.5f);
  SAME1(__nv_j0, ::j0, 2.5);
  SAME1(__nv_j0f, ::j0f, 2.5f);
  SAME1(__nv_j1, ::j1, 2.5);
  SAME1(__nv_j1f, ::j1f, 2.5f);
  SAME1(__nv_y0, ::y0, 2.5);
  SAME1(__nv_y0f, ::y0f, 2.5f);
  SAME1(__nv_y1, ::y1, 2.5);
  SAME1(__nv_y1f, ::y1f, 2.5f);
  SAME2(__nv_jn, ::jn, 3, 4.5);
  SAME2(__nv_jnf, ::jnf, 3, 4.5f);
  SAME2(__nv_yn, ::yn, 2, 4.5);
  SAME2(__nv_ynf, ::ynf, 2, 4.5f);
  SAME1(__nv_ceil, std::ceil, -2.5);
  SAME1(__nv_ceilf, std::ceil, -2.5f);
  SAME1(__nv_floor, std::floor, -2.5);
  SAME1(__nv_floorf, std::floor, -2.5f);
  SAME1(__nv_trunc, std::trunc, -2.7);
  SAME1(__nv_truncf, std::trunc, -2.7f);
  SAME1(__nv_round, std::round, 2.5);
  SAME1(__nv_roundf, std::round, -2.5f);
  SAME1(__nv_rint, std::rint, 2.5);
  SAME1(__nv_rintf, std::rint, 3.5f);
  SAME1(__nv_nearbyint, std::nearbyint, -2.5);
  SAME1(__nv_nearbyintf, std::nearbyint, -0.5f);
  SAME2(__nv_fmod, std::fmod, 10.5, 3.0);
  SAME2(__nv_fmodf, std::fmod, 10.5f, 3.0f);
  SAME2(__nv_remainder, std::remainder, 10.5, 3.0);
  SAME2(__nv_remainderf, std::remainder, 10.5f, 3.0f);
  SAME1(__nv_fabs, std::fabs, -0.0);
  SAME1(__nv_fabsf, std::fabs, -3.0f);
  SAME2(__nv_copysign, std::copysign, 2.0, -0.0);
  SAME2(__nv_copysignf, std::copysign, 2.0f, -0.0f);
  SAME2(__nv_fdim, std::fdim, 5.0, 3.0);
  SAME2(__nv_fdimf, std::fdim, 3.0f, 5.0f);
  SAME2(__nv_fmax, std::fmax, NaN, 1.0);
  SAME2(__nv_fmaxf, std::fmax, -1.0f, 2.0f);
  SAME2(__nv_fmin, std::fmin, 1.0, NaN);
  SAME2(__nv_fminf, std::fmin, -1.0f, 2.0f);
  SAME2(__nv_nextafter, std::nextafter, 1.0, 2.0);
  SAME2(__nv_nextafterf, std::nextafter, 1.0f, 0.0f);
  SAME2(__nv_ldexp, std::ldexp, 0.75, 10);
  SAME2(__nv_ldexpf, std::ldexp, 0.75f, -130);
  SAME2(__nv_scalbn, std::scalbn, 3.0, -1070);
  SAME2(__nv_scalbnf, std::scalbn, 3.0f, 5);
  same("__nv_fma(0.1, 10, -1)", __nv_fma(opaque(0.1), 10.0, -1.0),
       std::fma(opaque(0.1), 10.0, -1.0));
  same("__nv_fmaf(0.1f, 10, -1)", __nv_fmaf(opaque(0.1f), 10.0f, -1.0f),
       std::fma(opaque(0.1f), 10.0f, -1.0f));
  int Sign;
  same("__nv_lgamma(-0.5)", __nv_lgamma(opaque(-0.5)),
       ::lgamma_r(opaque(-0.5), &Sign));
  same("__nv_lgammaf(-0.5f)", __nv_lgammaf(opaque(-0.5f)),
       ::lgammaf_r(opaque(-0.5f), &Sign));
  same("__nv_powi(2, 10)", __nv_powi(2.0, 10), 1024.0);
  same("__nv_powi(-2, -3)", __nv_powi(-2.0, -3), -0.125);
  same("__nv_powif(3, 3)", __nv_powif(3.0f, 3), 27.0f);
  same("__nv_powif(0, -1)", __nv_powif(0.0f, -1), InfF);
  // CUDA's documented special values.
  same("__nv_ilogb(8)", __nv_ilogb(8.0), 3);
  same("__nv_ilogb(0)", __nv_ilogb(0.0), INT_MIN);
  same("__nv_ilogb(nan)", __nv_ilogb(NaN), INT_MIN);
  same("__nv_ilogb(-inf)", __nv_ilogb(-Inf), INT_MAX);
  same("__nv_ilogbf(0.1f)", __nv_ilogbf(0.1f), -4);
  same("__nv_ilogbf(0)", __nv_ilogbf(0.0f), INT_MIN);
  same("__nv_ilogbf(inf)", __nv_ilogbf(InfF), INT_MAX);
}

//===----------------------------------------------------------------------===//
// Classification, NaN construction, saturation
//===----------------------------------------------------------------------===//

void checkClassification() {
  same("__nv_isnand(nan)", __nv_isnand(NaN) != 0, true);
  same("__nv_isnand(inf)", __nv_isnand(Inf) != 0, false);
  same("__nv_isnanf(nan)", __nv_isnanf(NaNF) != 0, true);
  same("__nv_isnanf(1)", __nv_isnanf(1.0f) != 0, false);
  same("__nv_isinfd(-inf)", __nv_isinfd(-Inf) != 0, true);
  same("__nv_isinfd(nan)", __nv_isinfd(NaN) != 0, false);
  same("__nv_isinff(inf)", __nv_isinff(InfF) != 0, true);
  same("__nv_isinff(max)", __nv_isinff(FLT_MAX) != 0, false);
  same("__nv_isfinited(max)", __nv_isfinited(DBL_MAX) != 0, true);
  same("__nv_isfinited(inf)", __nv_isfinited(Inf) != 0, false);
  same("__nv_finitef(nan)", __nv_finitef(NaNF) != 0, false);
  same("__nv_finitef(denorm)", __nv_finitef(1e-40f) != 0, true);
  same("__nv_signbitd(-0)", __nv_signbitd(-0.0) != 0, true);
  same("__nv_signbitd(+0)", __nv_signbitd(0.0) != 0, false);
  same("__nv_signbitf(-nan)", __nv_signbitf(-NaNF) != 0, true);
  same("__nv_signbitf(1)", __nv_signbitf(1.0f) != 0, false);
  const signed char Empty[] = {0};
  same("__nv_nan(\"\") is nan", std::isnan(__nv_nan(Empty)), true);
  same("__nv_nanf(\"\") is nan", std::isnan(__nv_nanf(Empty)), true);
  same("__nv_saturatef(nan)", __nv_saturatef(NaNF), 0.0f);
  same("__nv_saturatef(-0)", __nv_saturatef(-0.0f), 0.0f);
  same("__nv_saturatef(-2)", __nv_saturatef(-2.0f), 0.0f);
  same("__nv_saturatef(0.25)", __nv_saturatef(0.25f), 0.25f);
  same("__nv_saturatef(1.5)", __nv_saturatef(1.5f), 1.0f);
  same("__nv_saturatef(inf)", __nv_saturatef(InfF), 1.0f);
}

//===----------------------------------------------------------------------===//
// Functions with pointer results
//===----------------------------------------------------------------------===//

void checkPointerResults() {
  double S = 0, C = 0;
  __nv_sincos(opaque(1.1), &S, &C);
  same("__nv_sincos(1.1) sin", S, std::sin(opaque(1.1)));
  same("__nv_sincos(1.1) cos", C, std::cos(opaque(1.1)));
  float SF = 0, CF = 0;
  __nv_sincosf(opaque(-4.0f), &SF, &CF);
  same("__nv_sincosf(-4) sin", SF, std::sin(opaque(-4.0f)));
  same("__nv_sincosf(-4) cos", CF, std::cos(opaque(-4.0f)));
  __nv_fast_sincosf(opaque(0.5f), &SF, &CF);
  same("__nv_fast_sincosf(0.5) sin", SF, std::sin(opaque(0.5f)));
  same("__nv_fast_sincosf(0.5) cos", CF, std::cos(opaque(0.5f)));
  __nv_sincospi(opaque(1.5), &S, &C);
  same("__nv_sincospi(1.5) sin", S, -1.0);
  same("__nv_sincospi(1.5) cos", C, 0.0);
  __nv_sincospif(opaque(-0.25f), &SF, &CF);
  near("__nv_sincospif(-0.25) sin", SF, -std::sqrt(0.5L), 0.5);
  near("__nv_sincospif(-0.25) cos", CF, std::sqrt(0.5L), 0.5);

  int Exp = 0;
  same("__nv_frexp(8) mantissa", __nv_frexp(8.0, &Exp), 0.5);
  same("__nv_frexp(8) exponent", Exp, 4);
  same("__nv_frexp(denorm) mantissa", __nv_frexp(0x1.8p-1070, &Exp), 0.75);
  same("__nv_frexp(denorm) exponent", Exp, -1069);
  same("__nv_frexpf(-3) mantissa", __nv_frexpf(-3.0f, &Exp), -0.75f);
  same("__nv_frexpf(-3) exponent", Exp, 2);

  double Integral = 0;
  same("__nv_modf(-3.75) fraction", __nv_modf(-3.75, &Integral), -0.75);
  same("__nv_modf(-3.75) integral", Integral, -3.0);
  float IntegralF = 0;
  same("__nv_modff(inf) fraction", __nv_modff(InfF, &IntegralF), 0.0f);
  same("__nv_modff(inf) integral", IntegralF, InfF);

  int Quo = 0, RefQuo = 0;
  double Rem = __nv_remquo(opaque(10.0), 3.0, &Quo);
  double RefRem = std::remquo(opaque(10.0), 3.0, &RefQuo);
  same("__nv_remquo(10, 3) remainder", Rem, RefRem);
  same("__nv_remquo(10, 3) remainder value", Rem, 1.0);
  same("__nv_remquo(10, 3) quotient bits", Quo & 7, 3);
  same("__nv_remquo(10, 3) quotient", Quo, RefQuo);
  float RemF = __nv_remquof(opaque(-7.0f), 2.0f, &Quo);
  same("__nv_remquof(-7, 2) remainder", RemF, 1.0f);
  same("__nv_remquof(-7, 2) quotient", Quo, -4);
}

//===----------------------------------------------------------------------===//
// Arithmetic with rounding modes
//===----------------------------------------------------------------------===//

enum Mode { RN, RZ, RU, RD };
const char *const ModeNames[] = {"_rn", "_rz", "_ru", "_rd"};

/// \p Exact, which must be the exact value, rounded to float in \p M. The
/// conversion from long double rounds to nearest once; the directed modes
/// step from there.
float roundFloat(long double Exact, Mode M) {
  float F = static_cast<float>(Exact);
  if (std::isnan(Exact) || static_cast<long double>(F) == Exact)
    return F;
  bool Up = M == RU || (M == RZ && Exact < 0);
  bool Down = M == RD || (M == RZ && Exact > 0);
  if (Up && static_cast<long double>(F) < Exact)
    F = std::nextafter(F, InfF);
  if (Down && static_cast<long double>(F) > Exact)
    F = std::nextafter(F, -InfF);
  return F;
}

/// The float operations: long double holds every exact sum (of nearby
/// exponents), product and fused multiply-add of floats; a float quotient or
/// square root that is not exact is farther than 2^-50 (relative) from every
/// float and midpoint, so the long double value rounds like the exact one.
void checkFloatModes(const char *Op, float A, float B, float C) {
  using Fn2 = float (*)(float, float);
  using Fn1 = float (*)(float);
  using Fn3 = float (*)(float, float, float);
  long double LA = A, LB = B, LC = C;
  for (int I = 0; I < 4; ++I) {
    Mode M = static_cast<Mode>(I);
    std::string Kind = Op;
    std::string Args = show(A);
    if (Kind != "frcp" && Kind != "fsqrt")
      Args += ", " + show(B);
    if (Kind.compare(0, 4, "fmaf") == 0)
      Args += ", " + show(C);
    std::string Name = "__nv_" + Kind + ModeNames[I] + "(" + Args + ")";
    float Got;
    long double Exact;
    if (Kind == "fadd") {
      const Fn2 F[] = {__nv_fadd_rn, __nv_fadd_rz, __nv_fadd_ru, __nv_fadd_rd};
      Got = F[I](A, B);
      Exact = LA + LB;
    } else if (Kind == "fsub") {
      const Fn2 F[] = {__nv_fsub_rn, __nv_fsub_rz, __nv_fsub_ru, __nv_fsub_rd};
      Got = F[I](A, B);
      Exact = LA - LB;
    } else if (Kind == "fmul") {
      const Fn2 F[] = {__nv_fmul_rn, __nv_fmul_rz, __nv_fmul_ru, __nv_fmul_rd};
      Got = F[I](A, B);
      Exact = LA * LB;
    } else if (Kind == "fdiv") {
      const Fn2 F[] = {__nv_fdiv_rn, __nv_fdiv_rz, __nv_fdiv_ru, __nv_fdiv_rd};
      Got = F[I](A, B);
      Exact = LA / LB;
    } else if (Kind == "frcp") {
      const Fn1 F[] = {__nv_frcp_rn, __nv_frcp_rz, __nv_frcp_ru, __nv_frcp_rd};
      Got = F[I](A);
      Exact = 1 / LA;
    } else if (Kind == "fsqrt") {
      const Fn1 F[] = {__nv_fsqrt_rn, __nv_fsqrt_rz, __nv_fsqrt_ru,
                       __nv_fsqrt_rd};
      Got = F[I](A);
      Exact = std::sqrt(LA);
    } else if (Kind == "fmaf") {
      const Fn3 F[] = {__nv_fmaf_rn, __nv_fmaf_rz, __nv_fmaf_ru, __nv_fmaf_rd};
      Got = F[I](A, B, C);
      Exact = LA * LB + LC;
    } else {
      const Fn3 F[] = {__nv_fmaf_ieee_rn, __nv_fmaf_ieee_rz, __nv_fmaf_ieee_ru,
                       __nv_fmaf_ieee_rd};
      Got = F[I](A, B, C);
      Exact = LA * LB + LC;
    }
    same(Name, Got, roundFloat(Exact, M));
  }
}

/// A double operation in its four modes, and the sign of (candidate - exact
/// result) for it, computed exactly with fma.
struct DoubleOp {
  const char *Name;
  double (*Fn[4])(double, double);
  int (*Compare)(double Candidate, double A, double B);
};

int sign(double X) { return (X > 0) - (X < 0); }

int compareQuotient(double C, double A, double B) {
  return sign(std::fma(C, B, -A)) * sign(B);
}
int compareReciprocal(double C, double A, double) {
  return compareQuotient(C, 1.0, A);
}
int compareRoot(double C, double A, double) {
  return C < 0 ? -1 : sign(std::fma(C, C, -A));
}

/// Checks that each directed result brackets the exact value as its mode
/// demands and that _rn matches the host's own (round-to-nearest) operation.
void checkDoubleModes(const DoubleOp &Op, double A, double B, double Nearest) {
  std::string Args = "(" + show(A) + ", " + show(B) + ")";
  same(std::string("__nv_") + Op.Name + "_rn" + Args, Op.Fn[RN](A, B), Nearest);
  for (int I = RZ; I <= RD; ++I) {
    double R = Op.Fn[I](A, B);
    int Here = Op.Compare(R, A, B);
    bool Exact = Here == 0;
    // The neighbours must lie on the other side of the exact value.
    bool PreviousBelow = Op.Compare(std::nextafter(R, -Inf), A, B) < 0;
    bool NextAbove = Op.Compare(std::nextafter(R, Inf), A, B) > 0;
    bool Down = I == RD || (I == RZ && Nearest > 0);
    bool Ok =
        Exact || (Down ? Here < 0 && NextAbove : Here > 0 && PreviousBelow);
    report(std::string("__nv_") + Op.Name + ModeNames[I] + Args, Ok, show(R),
           std::string("the result rounded ") + (Down ? "down" : "up") +
               " (nearest is " + show(Nearest) + ")");
  }
}

void checkRoundingArithmetic() {
  // Float: exact values strictly between two floats, of both signs, so that
  // every mode gives its own answer somewhere.
  const float One = 1.0f, U = 0x1p-23f;
  checkFloatModes("fadd", One, 0x1.8p-24f, 0);
  checkFloatModes("fadd", -One, -0x1.8p-24f, 0);
  checkFloatModes("fadd", 3.3f, 1.1f, 0);
  checkFloatModes("fsub", One, -0x1.8p-24f, 0);
  checkFloatModes("fsub", -0.1f, 3.7f, 0);
  checkFloatModes("fmul", One + U, 3 + 2 * U, 0);
  checkFloatModes("fmul", -(One + U), 3 + 2 * U, 0);
  checkFloatModes("fmul", 1.1f, -7.3f, 0);
  checkFloatModes("fdiv", 1.0f, 3.0f, 0);
  checkFloatModes("fdiv", -2.0f, 7.0f, 0);
  checkFloatModes("fdiv", 1.0f, 0.0f, 0);
  checkFloatModes("frcp", 3.0f, 0, 0);
  checkFloatModes("frcp", -10.0f, 0, 0);
  checkFloatModes("fsqrt", 2.0f, 0, 0);
  checkFloatModes("fsqrt", 3.0f, 0, 0);
  checkFloatModes("fsqrt", 0.25f, 0, 0);
  checkFloatModes("fmaf", One + U, One + 3 * U, -1.0f);
  checkFloatModes("fmaf", -(One + U), One + 3 * U, 1.0f);
  checkFloatModes("fmaf_ieee", One + U, One + U, -1.0f);
  checkFloatModes("fmaf_ieee", -(One + U), One + 3 * U, 1.0f);
  // Exact results stay exact in every mode.
  same("__nv_fmul_rd(1.5, 2)", __nv_fmul_rd(1.5f, 2.0f), 3.0f);
  same("__nv_fdiv_ru(1, 4)", __nv_fdiv_ru(1.0f, 4.0f), 0.25f);
  // Overflow: towards zero stops at the largest finite value.
  same("__nv_fmul_rz(max, 2)", __nv_fmul_rz(FLT_MAX, 2.0f), FLT_MAX);
  same("__nv_fmul_rn(max, 2)", __nv_fmul_rn(FLT_MAX, 2.0f), InfF);
  same("__nv_fadd_rd(max, max)", __nv_fadd_rd(FLT_MAX, FLT_MAX), FLT_MAX);
  same("__nv_fadd_ru(-max, -max)", __nv_fadd_ru(-FLT_MAX, -FLT_MAX), -FLT_MAX);
  // x - x is -0 when rounding down, +0 otherwise.
  same("__nv_fsub_rd(1, 1)", __nv_fsub_rd(1.0f, 1.0f), -0.0f);
  same("__nv_fsub_ru(1, 1)", __nv_fsub_ru(1.0f, 1.0f), 0.0f);
  same("__nv_dsub_rd(1, 1)", __nv_dsub_rd(1.0, 1.0), -0.0);
  same("__nv_dsub_rz(1, 1)", __nv_dsub_rz(1.0, 1.0), 0.0);

  // 1/sqrt correctly rounded, against exact integer arithmetic: R is the
  // float nearest 1/sqrt(A) iff the midpoints M around it satisfy
  // M_lo^2 A <= 1 <= M_hi^2 A.
  auto MidpointTest = [](float R, float Neighbour, float A) {
    // M = (R + Neighbour) / 2 = MM * 2^ME with MM an integer; A = AM * 2^AE.
    int RE, AE;
    long double Mid = (static_cast<long double>(R) + Neighbour) / 2;
    long double MF = std::frexp(Mid, &RE);
    // 26 bits hold the 25-bit midpoint.
    unsigned __int128 MM = static_cast<uint64_t>(std::ldexp(MF, 26));
    int ME = RE - 26;
    float AF = std::frexp(A, &AE);
    unsigned __int128 AM = static_cast<uint64_t>(std::ldexp(AF, 24));
    int Exp = 2 * ME + AE - 24;
    unsigned __int128 Product = MM * MM * AM; // < 2^76
    // Compare Product * 2^Exp with 1: -1, 0 or 1.
    if (Exp >= 0)
      return Product == 1 && Exp == 0 ? 0 : 1;
    if (-Exp >= 127)
      return -1;
    unsigned __int128 One128 = static_cast<unsigned __int128>(1) << -Exp;
    return Product < One128 ? -1 : Product > One128 ? 1 : 0;
  };
  int Wrong = 0;
  float FirstWrong = 0;
  int Tried = 0;
  // Geometric steps, but at least one float (subnormals do not grow by
  // multiplication at first).
  for (float A = 0x1p-149f; A < FLT_MAX;
       A = std::max(A * 1.0372f, std::nextafter(A, InfF)), ++Tried) {
    for (float X : {A, std::nextafter(A, InfF), std::nextafter(A, 0.0f)}) {
      if (!(X > 0))
        continue;
      float R = __nv_frsqrt_rn(X);
      float Lo = std::nextafter(R, 0.0f), Hi = std::nextafter(R, InfF);
      bool Ok = MidpointTest(Lo, R, X) <= 0 && MidpointTest(R, Hi, X) >= 0;
      if (!Ok && !Wrong++)
        FirstWrong = X;
    }
  }
  report("__nv_frsqrt_rn correctly rounded at " + std::to_string(Tried * 3) +
             " points",
         Wrong == 0,
         std::to_string(Wrong) + " misrounded, first at " + show(FirstWrong),
         "none misrounded");
  same("__nv_frsqrt_rn(4)", __nv_frsqrt_rn(4.0f), 0.5f);
  same("__nv_frsqrt_rn(-0)", __nv_frsqrt_rn(-0.0f), -InfF);
  same("__nv_frsqrt_rn(inf)", __nv_frsqrt_rn(InfF), 0.0f);
  same("__nv_frsqrt_rn(-1)", __nv_frsqrt_rn(-1.0f), NaNF);

  // Double: analytic cases. U is an ulp of 1.
  const double D1 = 1.0, DU = 0x1p-52;
  const double AddNear[] = {D1 + DU, D1, D1 + DU, D1};
  double (*const DAdd[])(double, double) = {__nv_dadd_rn, __nv_dadd_rz,
                                            __nv_dadd_ru, __nv_dadd_rd};
  double (*const DSub[])(double, double) = {__nv_dsub_rn, __nv_dsub_rz,
                                            __nv_dsub_ru, __nv_dsub_rd};
  double (*const DMul[])(double, double) = {__nv_dmul_rn, __nv_dmul_rz,
                                            __nv_dmul_ru, __nv_dmul_rd};
  double (*const DFma[])(double, double, double) = {__nv_fma_rn, __nv_fma_rz,
                                                    __nv_fma_ru, __nv_fma_rd};
  // 1 + 0.75 ulp and its negation.
  const double AddNeg[] = {-(D1 + DU), -D1, -D1, -(D1 + DU)};
  // (1 + U)(3 + 2U) = 3 + 5U + 2U^2: just above the midpoint of 3 + 4U and
  // 3 + 6U.
  const double MulPos[] = {3 + 6 * DU, 3 + 4 * DU, 3 + 6 * DU, 3 + 4 * DU};
  const double MulNeg[] = {-(3 + 6 * DU), -(3 + 4 * DU), -(3 + 4 * DU),
                           -(3 + 6 * DU)};
  // (1 + U)(1 + 3U) - 1 = 4U + 3U^2: 0.75 ulp above 4U.
  const double FmaLow = 4 * DU, FmaHigh = 4 * DU + 0x1p-102;
  const double FmaPos[] = {FmaHigh, FmaLow, FmaHigh, FmaLow};
  const double FmaNeg[] = {-FmaHigh, -FmaLow, -FmaLow, -FmaHigh};
  for (int I = 0; I < 4; ++I) {
    std::string Mode = ModeNames[I];
    same("__nv_dadd" + Mode + "(1, 0.75u)", DAdd[I](D1, 0x1.8p-53), AddNear[I]);
    same("__nv_dadd" + Mode + "(-1, -0.75u)", DAdd[I](-D1, -0x1.8p-53),
         AddNeg[I]);
    same("__nv_dsub" + Mode + "(1, -0.75u)", DSub[I](D1, -0x1.8p-53),
         AddNear[I]);
    same("__nv_dsub" + Mode + "(-1, 0.75u)", DSub[I](-D1, 0x1.8p-53),
         AddNeg[I]);
    same("__nv_dmul" + Mode + "(1+u, 3+2u)", DMul[I](D1 + DU, 3 + 2 * DU),
         MulPos[I]);
    same("__nv_dmul" + Mode + "(-1-u, 3+2u)", DMul[I](-(D1 + DU), 3 + 2 * DU),
         MulNeg[I]);
    same("__nv_fma" + Mode + "(1+u, 1+3u, -1)",
         DFma[I](D1 + DU, D1 + 3 * DU, -1.0), FmaPos[I]);
    same("__nv_fma" + Mode + "(-1-u, 1+3u, 1)",
         DFma[I](-(D1 + DU), D1 + 3 * DU, 1.0), FmaNeg[I]);
  }
  same("__nv_ddiv_ru(1, 3)", __nv_ddiv_ru(1.0, 3.0), 0x1.5555555555556p-2);
  same("__nv_ddiv_rd(1, 3)", __nv_ddiv_rd(1.0, 3.0), 0x1.5555555555555p-2);

  // Double: quotients, reciprocals and roots bracket the exact value.
  const DoubleOp Div = {
      "ddiv",
      {__nv_ddiv_rn, __nv_ddiv_rz, __nv_ddiv_ru, __nv_ddiv_rd},
      compareQuotient};
  const DoubleOp Rcp = {"drcp",
                        {[](double A, double) { return __nv_drcp_rn(A); },
                         [](double A, double) { return __nv_drcp_rz(A); },
                         [](double A, double) { return __nv_drcp_ru(A); },
                         [](double A, double) { return __nv_drcp_rd(A); }},
                        compareReciprocal};
  const DoubleOp Sqrt = {"dsqrt",
                         {[](double A, double) { return __nv_dsqrt_rn(A); },
                          [](double A, double) { return __nv_dsqrt_rz(A); },
                          [](double A, double) { return __nv_dsqrt_ru(A); },
                          [](double A, double) { return __nv_dsqrt_rd(A); }},
                         compareRoot};
  for (double A : {1.0, -2.0, 0.1, 1e300})
    for (double B : {3.0, -7.0, 1e-5})
      checkDoubleModes(Div, A, B, opaque(A) / B);
  for (double A : {3.0, -10.0, 0.7, 1e-300})
    checkDoubleModes(Rcp, A, 0, 1 / opaque(A));
  for (double A : {2.0, 3.0, 1e-300, 123456.789})
    checkDoubleModes(Sqrt, A, 0, std::sqrt(opaque(A)));
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

void checkConversions() {
  const float FU = 0x1p-23f;
  // double -> float.
  float (*const D2F[])(double) = {__nv_double2float_rn, __nv_double2float_rz,
                                  __nv_double2float_ru, __nv_double2float_rd};
  const float D2FPos[] = {1.0f + FU, 1.0f, 1.0f + FU, 1.0f};
  const float D2FNeg[] = {-1.0f, -1.0f, -1.0f, -(1.0f + FU)};
  const float D2FHuge[] = {InfF, FLT_MAX, InfF, FLT_MAX};
  for (int I = 0; I < 4; ++I) {
    std::string Mode = ModeNames[I];
    same("__nv_double2float" + Mode + "(1 + 0.75u)", D2F[I](1 + 0x1.8p-24),
         D2FPos[I]);
    same("__nv_double2float" + Mode + "(-1 - 2^-30)", D2F[I](-1 - 0x1p-30),
         D2FNeg[I]);
    same("__nv_double2float" + Mode + "(1e300)", D2F[I](1e300), D2FHuge[I]);
  }

  // Integers -> floating point.
  float (*const I2F[])(int) = {__nv_int2float_rn, __nv_int2float_rz,
                               __nv_int2float_ru, __nv_int2float_rd};
  float (*const U2F[])(unsigned) = {__nv_uint2float_rn, __nv_uint2float_rz,
                                    __nv_uint2float_ru, __nv_uint2float_rd};
  float (*const LL2F[])(long long) = {__nv_ll2float_rn, __nv_ll2float_rz,
                                      __nv_ll2float_ru, __nv_ll2float_rd};
  float (*const ULL2F[])(unsigned long long) = {
      __nv_ull2float_rn, __nv_ull2float_rz, __nv_ull2float_ru,
      __nv_ull2float_rd};
  double (*const LL2D[])(long long) = {__nv_ll2double_rn, __nv_ll2double_rz,
                                       __nv_ll2double_ru, __nv_ll2double_rd};
  double (*const ULL2D[])(unsigned long long) = {
      __nv_ull2double_rn, __nv_ull2double_rz, __nv_ull2double_ru,
      __nv_ull2double_rd};
  // 2^24 + 3 lies halfway between 2^24 + 2 and 2^24 + 4 (even).
  const float I2FPos[] = {16777220.0f, 16777218.0f, 16777220.0f, 16777218.0f};
  const float I2FNeg[] = {-16777216.0f, -16777216.0f, -16777216.0f,
                          -16777218.0f};
  const float U2FMax[] = {0x1p32f, 0x1p32f - 256, 0x1p32f, 0x1p32f - 256};
  const float LL2FPos[] = {0x1p40f, 0x1p40f, 0x1p40f + 0x1p17f, 0x1p40f};
  const float LL2FNeg[] = {-0x1p40f, -0x1p40f, -0x1p40f, -0x1p40f - 0x1p17f};
  const float ULL2FMax[] = {0x1p64f, 0x1p64f - 0x1p40f, 0x1p64f,
                            0x1p64f - 0x1p40f};
  const float ULL2FHigh[] = {0x1p63f, 0x1p63f, 0x1p63f + 0x1p40f, 0x1p63f};
  const double LL2DPos[] = {0x1p60, 0x1p60, 0x1p60 + 256, 0x1p60};
  const double LL2DNeg[] = {-0x1p60, -0x1p60, -0x1p60, -0x1p60 - 256};
  const double ULL2DMax[] = {0x1p64, 0x1p64 - 2048, 0x1p64, 0x1p64 - 2048};
  const double ULL2DHigh[] = {0x1p63, 0x1p63, 0x1p63 + 2048, 0x1p63};
  const unsigned long long High = (1ull << 63) + 1;
  for (int I = 0; I < 4; ++I) {
    std::string Mode = ModeNames[I];
    same("__nv_int2float" + Mode + "(2^24+3)", I2F[I](16777219), I2FPos[I]);
    same("__nv_int2float" + Mode + "(-2^24-1)", I2F[I](-16777217), I2FNeg[I]);
    same("__nv_uint2float" + Mode + "(UINT_MAX)", U2F[I](UINT_MAX), U2FMax[I]);
    same("__nv_ll2float" + Mode + "(2^40+1)", LL2F[I]((1ll << 40) + 1),
         LL2FPos[I]);
    same("__nv_ll2float" + Mode + "(-2^40-1)", LL2F[I](-(1ll << 40) - 1),
         LL2FNeg[I]);
    same("__nv_ull2float" + Mode + "(ULLONG_MAX)", ULL2F[I](ULLONG_MAX),
         ULL2FMax[I]);
    same("__nv_ull2float" + Mode + "(2^63+1)", ULL2F[I](High), ULL2FHigh[I]);
    same("__nv_ll2double" + Mode + "(2^60+1)", LL2D[I]((1ll << 60) + 1),
         LL2DPos[I]);
    same("__nv_ll2double" + Mode + "(-2^60-1)", LL2D[I](-(1ll << 60) - 1),
         LL2DNeg[I]);
    same("__nv_ull2double" + Mode + "(ULLONG_MAX)", ULL2D[I](ULLONG_MAX),
         ULL2DMax[I]);
    same("__nv_ull2double" + Mode + "(2^63+1)", ULL2D[I](High), ULL2DHigh[I]);
    same("__nv_ull2double" + Mode + "(0)", ULL2D[I](0), 0.0);
    same("__nv_ull2float" + Mode + "(0)", ULL2F[I](0), 0.0f);
  }
  same("__nv_int2double_rn(INT_MIN)", __nv_int2double_rn(INT_MIN),
       -2147483648.0);
  same("__nv_uint2double_rn(UINT_MAX)", __nv_uint2double_rn(UINT_MAX),
       4294967295.0);

  // Floating point -> integers: rounding, then saturation; NaN gives 0.
  int (*const F2I[])(float) = {__nv_float2int_rn, __nv_float2int_rz,
                               __nv_float2int_ru, __nv_float2int_rd};
  int (*const D2I[])(double) = {__nv_double2int_rn, __nv_double2int_rz,
                                __nv_double2int_ru, __nv_double2int_rd};
  unsigned (*const F2U[])(float) = {__nv_float2uint_rn, __nv_float2uint_rz,
                                    __nv_float2uint_ru, __nv_float2uint_rd};
  unsigned (*const D2U[])(double) = {__nv_double2uint_rn, __nv_double2uint_rz,
                                     __nv_double2uint_ru, __nv_double2uint_rd};
  long long (*const F2LL[])(float) = {__nv_float2ll_rn, __nv_float2ll_rz,
                                      __nv_float2ll_ru, __nv_float2ll_rd};
  long long (*const D2LL[])(double) = {__nv_double2ll_rn, __nv_double2ll_rz,
                                       __nv_double2ll_ru, __nv_double2ll_rd};
  unsigned long long (*const F2ULL[])(float) = {
      __nv_float2ull_rn, __nv_float2ull_rz, __nv_float2ull_ru,
      __nv_float2ull_rd};
  unsigned long long (*const D2ULL[])(double) = {
      __nv_double2ull_rn, __nv_double2ull_rz, __nv_double2ull_ru,
      __nv_double2ull_rd};
  const int Pos25[] = {2, 2, 3, 2};     // 2.5
  const int Neg25[] = {-2, -2, -2, -3}; // -2.5
  const int Pos35[] = {4, 3, 4, 3};     // 3.5
  const int Neg27[] = {-3, -2, -2, -3}; // -2.7
  for (int I = 0; I < 4; ++I) {
    std::string Mode = ModeNames[I];
    same("__nv_float2int" + Mode + "(2.5)", F2I[I](2.5f), Pos25[I]);
    same("__nv_float2int" + Mode + "(-2.5)", F2I[I](-2.5f), Neg25[I]);
    same("__nv_float2int" + Mode + "(3.5)", F2I[I](3.5f), Pos35[I]);
    same("__nv_float2int" + Mode + "(-2.7)", F2I[I](-2.7f), Neg27[I]);
    same("__nv_float2int" + Mode + "(nan)", F2I[I](NaNF), 0);
    same("__nv_float2int" + Mode + "(inf)", F2I[I](InfF), INT_MAX);
    same("__nv_float2int" + Mode + "(-inf)", F2I[I](-InfF), INT_MIN);
    same("__nv_float2int" + Mode + "(3e9)", F2I[I](3e9f), INT_MAX);
    same("__nv_float2int" + Mode + "(-3e9)", F2I[I](-3e9f), INT_MIN);
    same("__nv_float2int" + Mode + "(-2^31)", F2I[I](-0x1p31f), INT_MIN);
    same("__nv_double2int" + Mode + "(-2.5)", D2I[I](-2.5), Neg25[I]);
    same("__nv_double2int" + Mode + "(3.5)", D2I[I](3.5), Pos35[I]);
    same("__nv_double2int" + Mode + "(nan)", D2I[I](NaN), 0);
    same("__nv_double2int" + Mode + "(1e10)", D2I[I](1e10), INT_MAX);
    same("__nv_double2int" + Mode + "(-inf)", D2I[I](-Inf), INT_MIN);
    same("__nv_double2int" + Mode + "(2147483646.5)", D2I[I](2147483646.5),
         I == RU   ? INT_MAX
         : I == RN ? 2147483646
                   : 2147483646);
    same("__nv_float2uint" + Mode + "(2.5)", F2U[I](2.5f),
         static_cast<unsigned>(Pos25[I]));
    same("__nv_float2uint" + Mode + "(-1)", F2U[I](-1.0f), 0u);
    same("__nv_float2uint" + Mode + "(-0.5)", F2U[I](-0.5f), 0u);
    same("__nv_float2uint" + Mode + "(5e9)", F2U[I](5e9f), UINT_MAX);
    same("__nv_float2uint" + Mode + "(nan)", F2U[I](NaNF), 0u);
    same("__nv_float2uint" + Mode + "(2^32-256)", F2U[I](0x1p32f - 256),
         4294967040u);
    same("__nv_double2uint" + Mode + "(3.5)", D2U[I](3.5),
         static_cast<unsigned>(Pos35[I]));
    same("__nv_double2uint" + Mode + "(4294967294.5)", D2U[I](4294967294.5),
         I == RU ? 4294967295u : 4294967294u);
    same("__nv_double2uint" + Mode + "(1e20)", D2U[I](1e20), UINT_MAX);
    same("__nv_double2uint" + Mode + "(-inf)", D2U[I](-Inf), 0u);
    same("__nv_double2uint" + Mode + "(nan)", D2U[I](NaN), 0u);
    same("__nv_float2ll" + Mode + "(-2.5)", F2LL[I](-2.5f),
         static_cast<long long>(Neg25[I]));
    same("__nv_float2ll" + Mode + "(1e19)", F2LL[I](1e19f), LLONG_MAX);
    same("__nv_float2ll" + Mode + "(-2^63)", F2LL[I](-0x1p63f), LLONG_MIN);
    same("__nv_float2ll" + Mode + "(-1e19)", F2LL[I](-1e19f), LLONG_MIN);
    same("__nv_float2ll" + Mode + "(nan)", F2LL[I](NaNF), 0ll);
    same("__nv_double2ll" + Mode + "(3.5)", D2LL[I](3.5),
         static_cast<long long>(Pos35[I]));
    same("__nv_double2ll" + Mode + "(9.3e18)", D2LL[I](9.3e18), LLONG_MAX);
    same("__nv_double2ll" + Mode + "(2^62)", D2LL[I](0x1p62), 1ll << 62);
    same("__nv_double2ll" + Mode + "(-inf)", D2LL[I](-Inf), LLONG_MIN);
    same("__nv_double2ll" + Mode + "(nan)", D2LL[I](NaN), 0ll);
    same("__nv_float2ull" + Mode + "(2.5)", F2ULL[I](2.5f),
         static_cast<unsigned long long>(Pos25[I]));
    same("__nv_float2ull" + Mode + "(2e19)", F2ULL[I](2e19f), ULLONG_MAX);
    same("__nv_float2ull" + Mode + "(-5)", F2ULL[I](-5.0f), 0ull);
    same("__nv_float2ull" + Mode + "(nan)", F2ULL[I](NaNF), 0ull);
    same("__nv_double2ull" + Mode + "(3.5)", D2ULL[I](3.5),
         static_cast<unsigned long long>(Pos35[I]));
    same("__nv_double2ull" + Mode + "(1.8e19)", D2ULL[I](1.8e19),
         18000000000000000000ull);
    same("__nv_double2ull" + Mode + "(1.9e19)", D2ULL[I](1.9e19), ULLONG_MAX);
    same("__nv_double2ull" + Mode + "(-1)", D2ULL[I](-1.0), 0ull);
    same("__nv_double2ull" + Mode + "(nan)", D2ULL[I](NaN), 0ull);
  }
  same("__nv_llrint(2.5)", __nv_llrint(2.5), 2ll);
  same("__nv_llrint(-3.5)", __nv_llrint(-3.5), -4ll);
  same("__nv_llrint(1e30)", __nv_llrint(1e30), LLONG_MAX);
  same("__nv_llrint(nan)", __nv_llrint(NaN), 0ll);
  same("__nv_llrintf(0.5)", __nv_llrintf(0.5f), 0ll);
  same("__nv_llrintf(-1e30)", __nv_llrintf(-1e30f), LLONG_MIN);
  same("__nv_llround(2.5)", __nv_llround(2.5), 3ll);
  same("__nv_llround(-2.5)", __nv_llround(-2.5), -3ll);
  same("__nv_llround(-inf)", __nv_llround(-Inf), LLONG_MIN);
  same("__nv_llroundf(1e30)", __nv_llroundf(1e30f), LLONG_MAX);
  same("__nv_llroundf(-0.5)", __nv_llroundf(-0.5f), -1ll);

  // Half precision.
  struct {
    float F;
    unsigned short H;
  } const Halves[] = {{1.0f, 0x3c00},
                      {-2.0f, 0xc000},
                      {65504.0f, 0x7bff},
                      {65519.0f, 0x7bff},
                      {65520.0f, 0x7c00},
                      {1e10f, 0x7c00},
                      {-InfF, 0xfc00},
                      {1.0f + 0x1p-10f, 0x3c01},
                      {1.0f + 0x1p-11f, 0x3c00},
                      {1.0f + 0x3p-11f, 0x3c02},
                      {1.0f + 0x1.8p-11f, 0x3c01},
                      {0x1p-14f, 0x0400},
                      {0x1p-24f, 0x0001},
                      {0x1p-25f, 0x0000},
                      {0x1.8p-25f, 0x0001},
                      {0x3p-25f, 0x0002},
                      {0x3ffp-24f, 0x03ff},
                      {0x1.ff8p-15f, 0x03ff},
                      {0x1.ffcp-15f, 0x0400},
                      {-0.0f, 0x8000},
                      {-0x1p-30f, 0x8000},
                      {0.1f, 0x2e66},
                      {NaNF, 0x7fff}};
  for (const auto &Case : Halves)
    same("__nv_float2half_rn(" + show(Case.F) + ")", __nv_float2half_rn(Case.F),
         Case.H);
  struct {
    unsigned short H;
    float F;
  } const Floats[] = {{0x3c00, 1.0f},       {0xc000, -2.0f},
                      {0x7bff, 65504.0f},   {0x0001, 0x1p-24f},
                      {0x03ff, 0x3ffp-24f}, {0x8000, -0.0f},
                      {0x7c00, InfF},       {0xfc00, -InfF},
                      {0x7e00, NaNF},       {0x3555, 0x1.554p-2f}};
  for (const auto &Case : Floats)
    same("__nv_half2float(" + show(static_cast<unsigned>(Case.H)) + ")",
         __nv_half2float(Case.H), Case.F);

  // Reinterpretations.
  same("__nv_float_as_int(1)", __nv_float_as_int(1.0f), 0x3f800000);
  same("__nv_float_as_uint(-0)", __nv_float_as_uint(-0.0f), 0x80000000u);
  same("__nv_int_as_float(0x40490fdb)", __nv_int_as_float(0x40490fdb),
       static_cast<float>(M_PI));
  same("__nv_uint_as_float(0xff800000)", __nv_uint_as_float(0xff800000u),
       -InfF);
  same("__nv_double_as_longlong(-1)", __nv_double_as_longlong(-1.0),
       0xbff0000000000000ull);
  same("__nv_longlong_as_double(0x4000000000000000)",
       __nv_longlong_as_double(0x4000000000000000ll), 2.0);
  same("__nv_double2hiint(-2)", __nv_double2hiint(-2.0),
       static_cast<int>(0xc0000000u));
  same("__nv_double2loint(1 + 2^-52)", __nv_double2loint(1.0 + 0x1p-52), 1);
  same("__nv_hiloint2double(0x3ff00000, 1)", __nv_hiloint2double(0x3ff00000, 1),
       1.0 + 0x1p-52);
  same("__nv_hiloint2double(-1, -1) is nan",
       std::isnan(__nv_hiloint2double(-1, -1)), true);
  same("__nv_double2loint(hiloint2double(5, 0x89abcdef))",
       __nv_double2loint(__nv_hiloint2double(5, static_cast<int>(0x89abcdefu))),
       static_cast<int>(0x89abcdefu));
}

//===----------------------------------------------------------------------===//
// Integer helpers
//===----------------------------------------------------------------------===//

void checkIntegerHelpers() {
  same("__nv_abs(-5)", __nv_abs(-5), 5);
  same("__nv_abs(INT_MIN)", __nv_abs(INT_MIN), INT_MIN);
  same("__nv_llabs(-7)", __nv_llabs(-7), 7ll);
  same("__nv_llabs(LLONG_MIN)", __nv_llabs(LLONG_MIN), LLONG_MIN);
  same("__nv_max(-1, 1)", __nv_max(-1, 1), 1);
  same("__nv_min(-1, 1)", __nv_min(-1, 1), -1);
  same("__nv_umax(1, UINT_MAX)", __nv_umax(1, UINT_MAX), UINT_MAX);
  same("__nv_umin(1, UINT_MAX)", __nv_umin(1, UINT_MAX), 1u);
  same("__nv_llmax(LLONG_MIN, -1)", __nv_llmax(LLONG_MIN, -1), -1ll);
  same("__nv_llmin(LLONG_MIN, -1)", __nv_llmin(LLONG_MIN, -1), LLONG_MIN);
  same("__nv_ullmax(1, ULLONG_MAX)", __nv_ullmax(1, ULLONG_MAX), ULLONG_MAX);
  same("__nv_ullmin(1, ULLONG_MAX)", __nv_ullmin(1, ULLONG_MAX), 1ull);

  same("__nv_brev(1)", __nv_brev(1), INT_MIN);
  same("__nv_brev(0x12345678)", __nv_brev(0x12345678), 0x1e6a2c48);
  same("__nv_brevll(1)", __nv_brevll(1), LLONG_MIN);
  same("__nv_brevll(0x0123456789abcdef)", __nv_brevll(0x0123456789abcdefll),
       static_cast<long long>(0xf7b3d591e6a2c480ull));
  const int X = 0x33221100, Y = 0x77665544;
  same("__nv_byte_perm(x, y, 0x3210)", __nv_byte_perm(X, Y, 0x3210), X);
  same("__nv_byte_perm(x, y, 0x7654)", __nv_byte_perm(X, Y, 0x7654), Y);
  same("__nv_byte_perm(x, y, 0x0123)", __nv_byte_perm(X, Y, 0x0123),
       0x00112233);
  same("__nv_byte_perm(x, y, 0x1032)", __nv_byte_perm(X, Y, 0x1032),
       0x11003322);
  same("__nv_byte_perm(x, y, 0x4f)", __nv_byte_perm(X, Y, 0x4f), 0x00004477);
  same("__nv_byte_perm(x, y, 0xffff3210)",
       __nv_byte_perm(X, Y, static_cast<int>(0xffff3210u)), X);
  same("__nv_clz(0)", __nv_clz(0), 32);
  same("__nv_clz(1)", __nv_clz(1), 31);
  same("__nv_clz(-1)", __nv_clz(-1), 0);
  same("__nv_clzll(0)", __nv_clzll(0), 64);
  same("__nv_clzll(1 << 40)", __nv_clzll(1ll << 40), 23);
  same("__nv_ffs(0)", __nv_ffs(0), 0);
  same("__nv_ffs(8)", __nv_ffs(8), 4);
  same("__nv_ffs(INT_MIN)", __nv_ffs(INT_MIN), 32);
  same("__nv_ffsll(1 << 40)", __nv_ffsll(1ll << 40), 41);
  same("__nv_ffsll(0)", __nv_ffsll(0), 0);
  same("__nv_popc(UINT_MAX)", __nv_popc(UINT_MAX), 32);
  same("__nv_popc(0xf0f0)", __nv_popc(0xf0f0u), 8);
  same("__nv_popcll(ULLONG_MAX)", __nv_popcll(ULLONG_MAX), 64);
  same("__nv_popcll(1 << 63 | 1)", __nv_popcll((1ull << 63) | 1), 2);

  same("__nv_hadd(INT_MAX, INT_MAX)", __nv_hadd(INT_MAX, INT_MAX), INT_MAX);
  same("__nv_hadd(-3, 0)", __nv_hadd(-3, 0), -2);
  same("__nv_rhadd(-3, 0)", __nv_rhadd(-3, 0), -1);
  same("__nv_rhadd(3, 0)", __nv_rhadd(3, 0), 2);
  same("__nv_rhadd(INT_MAX, INT_MAX)", __nv_rhadd(INT_MAX, INT_MAX), INT_MAX);
  same("__nv_uhadd(UINT_MAX, UINT_MAX)", __nv_uhadd(UINT_MAX, UINT_MAX), -1);
  same("__nv_uhadd(3, 0)", __nv_uhadd(3, 0), 1);
  same("__nv_urhadd(UINT_MAX, 0)", __nv_urhadd(UINT_MAX, 0), 0x80000000u);
  same("__nv_urhadd(3, 0)", __nv_urhadd(3, 0), 2u);
  same("__nv_mul24(0x800000, 2)", __nv_mul24(0x800000, 2), -16777216);
  same("__nv_mul24(0x1000003, 5)", __nv_mul24(0x1000003, 5), 15);
  same("__nv_mul24(-3, 7)", __nv_mul24(-3, 7), -21);
  same("__nv_umul24(0xffffff, 0xffffff)", __nv_umul24(0xffffffu, 0xffffffu),
       0xfe000001u);
  same("__nv_umul24(0x1000002, 3)", __nv_umul24(0x1000002u, 3u), 6u);
  same("__nv_mulhi(INT_MIN, INT_MIN)", __nv_mulhi(INT_MIN, INT_MIN),
       0x40000000);
  same("__nv_mulhi(-1, 1)", __nv_mulhi(-1, 1), -1);
  same("__nv_umulhi(UINT_MAX, UINT_MAX)", __nv_umulhi(UINT_MAX, UINT_MAX),
       0xfffffffeu);
  same("__nv_mul64hi(LLONG_MIN, 2)", __nv_mul64hi(LLONG_MIN, 2), -1ll);
  same("__nv_mul64hi(1 << 62, 8)", __nv_mul64hi(1ll << 62, 8), 2ll);
  same("__nv_umul64hi(ULLONG_MAX, ULLONG_MAX)",
       __nv_umul64hi(ULLONG_MAX, ULLONG_MAX), ULLONG_MAX - 1);
  same("__nv_sad(-5, 5, 3)", __nv_sad(-5, 5, 3), 13);
  same("__nv_sad(INT_MIN, INT_MAX, 0)", __nv_sad(INT_MIN, INT_MAX, 0), -1);
  same("__nv_sad(7, 2, -1)", __nv_sad(7, 2, -1), 4);
  same("__nv_usad(1, UINT_MAX, 1)", __nv_usad(1, UINT_MAX, 1), UINT_MAX);
  same("__nv_usad(9, 4, 10)", __nv_usad(9, 4, 10), 15u);
}

//===----------------------------------------------------------------------===//
// SIMD video functions
//===----------------------------------------------------------------------===//

#define SIMD(F, A, B, R)                                                       \
  same(#F "(" #A ", " #B ")",                                                  \
       static_cast<unsigned>(                                                  \
           F(static_cast<int>(A##u), static_cast<int>(B##u))),                 \
       static_cast<unsigned>(R##u))
#define SIMD1(F, A, R)                                                         \
  same(#F "(" #A ")", static_cast<unsigned>(F(static_cast<int>(A##u))),        \
       static_cast<unsigned>(R##u))

void checkSimd() {
  SIMD(__nv_vadd2, 0x7fff0001, 0x00010001, 0x80000002);
  SIMD(__nv_vadd4, 0xff01ff01, 0x01010101, 0x00020002);
  SIMD(__nv_vaddss2, 0x7fff8000, 0x0001ffff, 0x7fff8000);
  SIMD(__nv_vaddss4, 0x7f80107f, 0x01ff1001, 0x7f80207f);
  SIMD(__nv_vaddus2, 0xffff0001, 0x00010001, 0xffff0002);
  SIMD(__nv_vaddus4, 0xff01fe00, 0x0101017f, 0xff02ff7f);
  SIMD(__nv_vsub2, 0x00000005, 0x00010007, 0xfffffffe);
  SIMD(__nv_vsub4, 0x00010203, 0x01010101, 0xff000102);
  SIMD(__nv_vsubss2, 0x80007fff, 0x0001ffff, 0x80007fff);
  SIMD(__nv_vsubss4, 0x807f0000, 0x01ff0101, 0x807fffff);
  SIMD(__nv_vsubus2, 0x00010005, 0x00020003, 0x00000002);
  SIMD(__nv_vsubus4, 0x01020304, 0x02020202, 0x00000102);
  SIMD1(__nv_vabs2, 0x8000ffff, 0x80000001);
  SIMD1(__nv_vabs4, 0x80ff7f01, 0x80017f01);
  SIMD1(__nv_vabsss2, 0x8000ffff, 0x7fff0001);
  SIMD1(__nv_vabsss4, 0x80ff7f01, 0x7f017f01);
  SIMD1(__nv_vneg2, 0x80000001, 0x8000ffff);
  SIMD1(__nv_vneg4, 0x80017f00, 0x80ff8100);
  SIMD1(__nv_vnegss2, 0x80000001, 0x7fffffff);
  SIMD1(__nv_vnegss4, 0x80017f00, 0x7fff8100);
  SIMD(__nv_vabsdiffs2, 0x7fff8000, 0x80007fff, 0xffffffff);
  SIMD(__nv_vabsdiffs4, 0x7f80ff00, 0x807f0100, 0xffff0200);
  SIMD(__nv_vabsdiffu2, 0x00010005, 0x00030002, 0x00020003);
  SIMD(__nv_vabsdiffu4, 0x7f80ff00, 0x807f0100, 0x0101fe00);
  SIMD(__nv_vsads2, 0x0000ffff, 0x00000001, 2);
  SIMD(__nv_vsadu2, 0x0000ffff, 0x00000001, 65534);
  SIMD(__nv_vsads4, 0x7f80ff00, 0x807f0100, 512);
  SIMD(__nv_vsadu4, 0x7f80ff00, 0x807f0100, 256);
  SIMD(__nv_vavgs2, 0xfffd0003, 0x00000000, 0xfffe0002);
  SIMD(__nv_vavgs4, 0xfd03ff01, 0x00000000, 0xfe02ff01);
  SIMD(__nv_vavgu2, 0xffff0001, 0xffff0000, 0xffff0001);
  SIMD(__nv_vavgu4, 0xff010300, 0xff000001, 0xff010201);
  SIMD(__nv_vhaddu2, 0xffff0001, 0xffff0000, 0xffff0000);
  SIMD(__nv_vhaddu4, 0xff010300, 0xff000001, 0xff000100);
  SIMD(__nv_vmaxs2, 0x8000ffff, 0x7fff0001, 0x7fff0001);
  SIMD(__nv_vmaxu2, 0x8000ffff, 0x7fff0001, 0x8000ffff);
  SIMD(__nv_vmaxs4, 0x80017f00, 0x7f02ff01, 0x7f027f01);
  SIMD(__nv_vmaxu4, 0x80017f00, 0x7f02ff01, 0x8002ff01);
  SIMD(__nv_vmins2, 0x8000ffff, 0x7fff0001, 0x8000ffff);
  SIMD(__nv_vminu2, 0x8000ffff, 0x7fff0001, 0x7fff0001);
  SIMD(__nv_vmins4, 0x80017f00, 0x7f02ff01, 0x8001ff00);
  SIMD(__nv_vminu4, 0x80017f00, 0x7f02ff01, 0x7f017f00);
  SIMD(__nv_vcmpeq2, 0x11223344, 0x11003344, 0x0000ffff);
  SIMD(__nv_vcmpeq4, 0x11223344, 0x11003344, 0xff00ffff);
  SIMD(__nv_vcmpne2, 0x11223344, 0x11003344, 0xffff0000);
  SIMD(__nv_vcmpne4, 0x11223344, 0x11003344, 0x00ff0000);
  SIMD(__nv_vcmpges2, 0x80000001, 0x7fff0001, 0x0000ffff);
  SIMD(__nv_vcmpgeu2, 0x80000001, 0x7fff0001, 0xffffffff);
  SIMD(__nv_vcmpgts4, 0x80ff0102, 0x7f000101, 0x000000ff);
  SIMD(__nv_vcmpgtu4, 0x80ff0102, 0x7f000101, 0xffff00ff);
  SIMD(__nv_vcmples2, 0x80000002, 0x7fff0001, 0xffff0000);
  SIMD(__nv_vcmpleu4, 0x80ff0102, 0x7f000101, 0x0000ff00);
  SIMD(__nv_vcmplts4, 0x01ff0080, 0x02000100, 0xffffffff);
  SIMD(__nv_vcmpltu2, 0x0001ffff, 0x00020001, 0xffff0000);
  SIMD(__nv_vseteq4, 0x11223344, 0x11003344, 0x01000101);
  SIMD(__nv_vsetne2, 0x00010002, 0x00010003, 0x00000001);
  SIMD(__nv_vsetges4, 0x80ff0102, 0x7f000101, 0x00000101);
  SIMD(__nv_vsetgeu4, 0x80ff0102, 0x7f000101, 0x01010101);
  SIMD(__nv_vsetgts2, 0x0001ffff, 0xffff0000, 0x00010000);
  SIMD(__nv_vsetgtu2, 0x0001ffff, 0xffff0000, 0x00000001);
  SIMD(__nv_vsetles2, 0x0001ffff, 0xffff0000, 0x00000001);
  SIMD(__nv_vsetleu2, 0x0001ffff, 0xffff0000, 0x00010000);
  SIMD(__nv_vsetlts4, 0x01ff0080, 0x02000100, 0x01010101);
  SIMD(__nv_vsetltu4, 0x01ff0080, 0x02000100, 0x01000100);
}

//===----------------------------------------------------------------------===//
// Functions without a libm counterpart
//===----------------------------------------------------------------------===//

const long double PiL = 3.141592653589793238462643383279502884L;

/// sin(pi x) and cos(pi x) in long double after the exact reduction of x
/// modulo 2.
long double sinPiRef(double X) {
  return std::sin(PiL * std::fmod(static_cast<long double>(X), 2.0L));
}
long double cosPiRef(double X) {
  return std::cos(PiL * std::fmod(static_cast<long double>(X), 2.0L));
}

/// The power series of I0 and I1 in long double.
long double besselIRef(int Nu, double X) {
  long double Quarter = static_cast<long double>(X) * X / 4;
  long double Term = Nu ? static_cast<long double>(X) / 2 : 1;
  long double Sum = Term;
  for (int K = 1; K < 2000 && Term > Sum * 1e-22L; ++K) {
    Term *= Quarter / (static_cast<long double>(K) * (K + Nu));
    Sum += Term;
  }
  return Sum;
}

/// exp(x^2) erfc(x) in long double, with x^2 split into exactly
/// representable parts.
long double erfcxRef(double X) {
  double Hi = static_cast<double>(static_cast<float>(X)); // 24 bits
  long double Lo = static_cast<long double>(X) - Hi;
  long double H = Hi;
  return std::exp(H * H) * std::exp(2 * H * Lo) * std::exp(Lo * Lo) *
         std::erfc(static_cast<long double>(X));
}

long double normcdfRef(long double X) {
  return std::erfc(-X / std::sqrt(2.0L)) / 2;
}

/// How far \p Y is from the exact root of F(y) = Target, in ulps of Y,
/// estimated by a Newton step: (F(Y) - Target) / F'(Y). F's own error
/// contributes at most about an ulp.
void checkInverse(const std::string &Name, double Y, long double Residual,
                  long double Derivative, double MaxUlps) {
  long double InUlps = std::fabs(Residual / Derivative) / ulpOf<double>(Y);
  char Buffer[64];
  std::snprintf(Buffer, sizeof(Buffer), " (%.3Lg ulps off, at most %g)", InUlps,
                MaxUlps);
  report(Name, std::isfinite(Y) && InUlps <= MaxUlps, show(Y) + Buffer,
         "the inverse");
}

void checkSpecialFunctions() {
  // sin(pi x), cos(pi x): exact at integers and half-integers, with IEEE
  // 754's zero signs.
  same("__nv_sinpi(0)", __nv_sinpi(0.0), 0.0);
  same("__nv_sinpi(-0)", __nv_sinpi(-0.0), -0.0);
  same("__nv_sinpi(1)", __nv_sinpi(1.0), 0.0);
  same("__nv_sinpi(-3)", __nv_sinpi(-3.0), -0.0);
  same("__nv_sinpi(0.5)", __nv_sinpi(0.5), 1.0);
  same("__nv_sinpi(1.5)", __nv_sinpi(1.5), -1.0);
  same("__nv_sinpi(-0.5)", __nv_sinpi(-0.5), -1.0);
  same("__nv_sinpi(2.5)", __nv_sinpi(2.5), 1.0);
  same("__nv_sinpi(1e17)", __nv_sinpi(1e17), 0.0);
  same("__nv_sinpi(inf)", __nv_sinpi(Inf), NaN);
  same("__nv_cospi(0)", __nv_cospi(0.0), 1.0);
  same("__nv_cospi(0.5)", __nv_cospi(0.5), 0.0);
  same("__nv_cospi(-1.5)", __nv_cospi(-1.5), 0.0);
  same("__nv_cospi(1)", __nv_cospi(1.0), -1.0);
  same("__nv_cospi(-4)", __nv_cospi(-4.0), 1.0);
  same("__nv_cospi(2^52+1)", __nv_cospi(0x1p52 + 1), -1.0);
  same("__nv_cospi(1e300)", __nv_cospi(1e300), 1.0);
  same("__nv_cospi(nan)", __nv_cospi(NaN), NaN);
  same("__nv_sinpif(-2)", __nv_sinpif(-2.0f), -0.0f);
  same("__nv_sinpif(0.5)", __nv_sinpif(0.5f), 1.0f);
  same("__nv_cospif(2.5)", __nv_cospif(2.5f), 0.0f);
  same("__nv_cospif(3)", __nv_cospif(3.0f), -1.0f);
  same("__nv_sinpi(2^51 + 0.5)", __nv_sinpi(0x1p51 + 0.5), 1.0);
  same("__nv_sinpi(2^52 - 0.5)", __nv_sinpi(0x1p52 - 0.5), -1.0);
  same("__nv_cospi(2^52 - 0.5)", __nv_cospi(0x1p52 - 0.5), 0.0);
  for (double X : {0.3, 0.7, 1.3, -2.2, 1.0 / 6, 0.25, 1000.25, 12345.678,
                   -0.01, 1e-300, 0x1p50 + 0.25}) {
    near(call("__nv_sinpi", X), __nv_sinpi(X), sinPiRef(X), 1);
    near(call("__nv_cospi", X), __nv_cospi(X), cosPiRef(X), 1);
    float XF = static_cast<float>(X);
    near(call("__nv_sinpif", XF), __nv_sinpif(XF), sinPiRef(XF), 0.6);
    near(call("__nv_cospif", XF), __nv_cospif(XF), cosPiRef(XF), 0.6);
  }

  // Scaled complementary error function.
  for (double X : {-26.0, -3.0, -0.5, 0.0, 1e-10, 0.5, 3.0, 10.0, 25.9, 26.0,
                   26.1, 40.0, 100.0}) {
    near(call("__nv_erfcx", X), __nv_erfcx(X), erfcxRef(X), 2);
    float XF = static_cast<float>(X);
    near(call("__nv_erfcxf", XF), __nv_erfcxf(XF), erfcxRef(XF), 0.6);
  }
  {
    // Far out, 1/(x sqrt(pi)) (1 - 1/(2x^2) + 3/(4x^4)).
    long double X = 1e5L, X2 = X * X;
    long double Ref =
        (1 - 1 / (2 * X2) + 3 / (4 * X2 * X2)) / (X * std::sqrt(PiL));
    near("__nv_erfcx(1e5)", __nv_erfcx(1e5), Ref, 1);
  }
  same("__nv_erfcx(-30)", __nv_erfcx(-30.0), Inf);
  same("__nv_erfcx(-inf)", __nv_erfcx(-Inf), Inf);
  same("__nv_erfcx(inf)", __nv_erfcx(Inf), 0.0);
  same("__nv_erfcx(nan)", __nv_erfcx(NaN), NaN);

  // Inverse error functions: round trips through the host's erf and erfc.
  const long double TwoOverSqrtPi = 2 / std::sqrt(PiL);
  for (double X : {1e-300, 1e-10, 0.1, 0.3, 0.5, -0.5000001, -0.7, 0.9, 0.999,
                   1 - 1e-10, -(1 - 0x1p-53)}) {
    double Y = __nv_erfinv(X);
    double Magnitude = std::fabs(X);
    long double Slope =
        TwoOverSqrtPi * std::exp(-static_cast<long double>(Y) * Y);
    // Near 1, compare erfc(|y|) with the exact 1 - |x| instead.
    long double Residual =
        Magnitude <= 0.5
            ? static_cast<long double>(std::erf(opaque(Y))) - X
            : -(std::erfc(opaque(std::fabs(Y))) - (1.0L - Magnitude));
    checkInverse(call("__nv_erfinv", X) + " round trip", Y, Residual, Slope, 3);
    same(call("__nv_erfinv", X) + " odd", __nv_erfinv(-X), -Y);
  }
  for (double Z : {1e-300, 1e-100, 1e-20, 0.01, 0.3, 0.5, 0.7, 1.0, 1.5, 1.99,
                   2 - 0x1p-52}) {
    double Y = __nv_erfcinv(Z);
    long double Slope =
        -TwoOverSqrtPi * std::exp(-static_cast<long double>(Y) * Y);
    long double Residual =
        Z <= 1 ? std::erfc(opaque(Y)) - static_cast<long double>(Z)
               : -(std::erfc(opaque(-Y)) - (2.0L - Z));
    checkInverse(call("__nv_erfcinv", Z) + " round trip", Y, Residual, Slope,
                 3);
  }
  for (float X : {0.001f, 0.4f, -0.75f, 0.99999f}) {
    float Y = __nv_erfinvf(X);
    near(call("__nv_erfinvf", X), Y, __nv_erfinv(X), 0.5);
    near(call("__nv_erfcinvf", 1 - X), __nv_erfcinvf(1 - X),
         __nv_erfcinv(1 - X), 0.5);
  }
  same("__nv_erfinv(0)", __nv_erfinv(0.0), 0.0);
  same("__nv_erfinv(-0)", __nv_erfinv(-0.0), -0.0);
  same("__nv_erfinv(1)", __nv_erfinv(1.0), Inf);
  same("__nv_erfinv(-1)", __nv_erfinv(-1.0), -Inf);
  same("__nv_erfinv(1.5)", __nv_erfinv(1.5), NaN);
  same("__nv_erfcinv(0)", __nv_erfcinv(0.0), Inf);
  same("__nv_erfcinv(2)", __nv_erfcinv(2.0), -Inf);
  same("__nv_erfcinv(1)", __nv_erfcinv(1.0), 0.0);
  same("__nv_erfcinv(-1)", __nv_erfcinv(-1.0), NaN);
  same("__nv_erfinvf(1)", __nv_erfinvf(1.0f), InfF);
  same("__nv_erfcinvf(2.5)", __nv_erfcinvf(2.5f), NaNF);

  // The standard normal distribution and its inverse.
  for (double X :
       {-38.0, -37.5, -20.0, -10.0, -1.0, -1e-3, 0.5, 3.0, 8.0, 9.0}) {
    near(call("__nv_normcdf", X), __nv_normcdf(X), normcdfRef(X), 1.5);
    float XF = static_cast<float>(X);
    near(call("__nv_normcdff", XF), __nv_normcdff(XF), normcdfRef(XF), 0.6);
  }
  same("__nv_normcdf(0)", __nv_normcdf(0.0), 0.5);
  same("__nv_normcdf(-inf)", __nv_normcdf(-Inf), 0.0);
  same("__nv_normcdf(inf)", __nv_normcdf(Inf), 1.0);
  same("__nv_normcdf(40)", __nv_normcdf(40.0), 1.0);
  same("__nv_normcdf(nan)", __nv_normcdf(NaN), NaN);
  const long double InvSqrt2Pi = 1 / std::sqrt(2 * PiL);
  for (double P : {1e-300, 1e-50, 1e-5, 0.025, 0.3, 0.7, 0.975, 1 - 1e-9}) {
    double Y = __nv_normcdfinv(P);
    long double Density =
        InvSqrt2Pi * std::exp(-static_cast<long double>(Y) * Y / 2);
    long double Residual =
        P <= 0.5 ? normcdfRef(Y) - P : -(normcdfRef(-Y) - (1.0L - P));
    checkInverse(call("__nv_normcdfinv", P) + " round trip", Y, Residual,
                 Density, 3);
    float PF = static_cast<float>(P);
    if (PF > 0 && PF < 1)
      near(call("__nv_normcdfinvf", PF), __nv_normcdfinvf(PF),
           __nv_normcdfinv(PF), 0.5);
  }
  same("__nv_normcdfinv(0.5)", __nv_normcdfinv(0.5), 0.0);
  same("__nv_normcdfinv(0)", __nv_normcdfinv(0.0), -Inf);
  same("__nv_normcdfinv(1)", __nv_normcdfinv(1.0), Inf);
  same("__nv_normcdfinv(-0.1)", __nv_normcdfinv(-0.1), NaN);

  // Modified Bessel functions of the first kind against their power series.
  for (double X : {0.0, 0.5, 1.0, 5.0, 20.0, 24.9, 25.1, 30.0, 100.0, 700.0}) {
    near(call("__nv_cyl_bessel_i0", X), __nv_cyl_bessel_i0(X), besselIRef(0, X),
         2);
    near(call("__nv_cyl_bessel_i1", X), __nv_cyl_bessel_i1(X), besselIRef(1, X),
         2);
    float XF = static_cast<float>(X);
    near(call("__nv_cyl_bessel_i0f", XF), __nv_cyl_bessel_i0f(XF),
         besselIRef(0, XF), 0.6);
    near(call("__nv_cyl_bessel_i1f", XF), __nv_cyl_bessel_i1f(XF),
         besselIRef(1, XF), 0.6);
  }
  same("__nv_cyl_bessel_i0(-3)", __nv_cyl_bessel_i0(-3.0),
       __nv_cyl_bessel_i0(3.0));
  same("__nv_cyl_bessel_i1(-3)", __nv_cyl_bessel_i1(-3.0),
       -__nv_cyl_bessel_i1(3.0));
  same("__nv_cyl_bessel_i1(-0)", __nv_cyl_bessel_i1(-0.0), -0.0);
  same("__nv_cyl_bessel_i0(800)", __nv_cyl_bessel_i0(800.0), Inf);
  same("__nv_cyl_bessel_i1(-inf)", __nv_cyl_bessel_i1(-Inf), -Inf);
  same("__nv_cyl_bessel_i0f(100)", __nv_cyl_bessel_i0f(100.0f), InfF);
}

//===----------------------------------------------------------------------===//
// Reciprocals and norms
//===----------------------------------------------------------------------===//

void checkReciprocalsAndNorms() {
  same("__nv_rsqrt(4)", __nv_rsqrt(4.0), 0.5);
  same("__nv_rsqrt(2)", __nv_rsqrt(2.0), 0x1.6a09e667f3bcdp-1);
  same("__nv_rsqrt(-0)", __nv_rsqrt(-0.0), -Inf);
  same("__nv_rsqrt(inf)", __nv_rsqrt(Inf), 0.0);
  same("__nv_rsqrt(-1)", __nv_rsqrt(-1.0), NaN);
  near("__nv_rsqrt(1e-310)", __nv_rsqrt(1e-310),
       1 / std::sqrt(static_cast<long double>(1e-310)), 0.5);
  same("__nv_rsqrtf(0.25)", __nv_rsqrtf(0.25f), 2.0f);
  near("__nv_rsqrtf(3)", __nv_rsqrtf(3.0f), 1 / std::sqrt(3.0L), 0.5);
  same("__nv_rcbrt(8)", __nv_rcbrt(8.0), 0.5);
  near("__nv_rcbrt(-27)", __nv_rcbrt(-27.0), -1 / 3.0L, 0.5);
  near("__nv_rcbrt(10)", __nv_rcbrt(10.0), 1 / std::cbrt(10.0L), 0.5);
  near("__nv_rcbrt(1e-300)", __nv_rcbrt(1e-300),
       1 / std::cbrt(static_cast<long double>(1e-300)), 0.5);
  same("__nv_rcbrt(0)", __nv_rcbrt(0.0), Inf);
  same("__nv_rcbrt(-0)", __nv_rcbrt(-0.0), -Inf);
  same("__nv_rcbrt(-inf)", __nv_rcbrt(-Inf), -0.0);
  same("__nv_rcbrtf(64)", __nv_rcbrtf(64.0f), 0.25f);
  near("__nv_rcbrtf(-5)", __nv_rcbrtf(-5.0f), -1 / std::cbrt(5.0L), 0.5);

  same("__nv_norm3d(3, 4, 12)", __nv_norm3d(3, 4, 12), 13.0);
  near("__nv_norm3d(1e300, 1e300, 0)", __nv_norm3d(1e300, 1e300, 0),
       std::sqrt(2.0L) * static_cast<long double>(1e300), 0.5);
  same("__nv_norm3d(3d, 4d, 0) for subnormal d",
       __nv_norm3d(0x3p-1070, 0x4p-1070, 0), 0x5p-1070);
  same("__nv_norm3d(nan, inf, 1)", __nv_norm3d(NaN, Inf, 1), Inf);
  same("__nv_norm3d(nan, 1, 1)", __nv_norm3d(NaN, 1, 1), NaN);
  same("__nv_norm3df(2, 3, 6)", __nv_norm3df(2, 3, 6), 7.0f);
  near("__nv_norm3df(3e38, 3e38, 3e38)", __nv_norm3df(3e38f, 3e38f, 3e38f),
       std::sqrt(3.0L) * 3e38f, 0.5);
  same("__nv_norm4d(1, 2, 2, 4)", __nv_norm4d(1, 2, 2, 4), 5.0);
  same("__nv_norm4df(-1, 2, -2, 4)", __nv_norm4df(-1, 2, -2, 4), 5.0f);
  near("__nv_rnorm3d(3, 4, 12)", __nv_rnorm3d(3, 4, 12), 1 / 13.0L, 0.5);
  same("__nv_rnorm3d(0, 0, 0)", __nv_rnorm3d(0, 0, -0.0), Inf);
  same("__nv_rnorm3d(inf, nan, 1)", __nv_rnorm3d(-Inf, NaN, 1), 0.0);
  near("__nv_rnorm3df(2, 3, 6)", __nv_rnorm3df(2, 3, 6), 1 / 7.0L, 0.5);
  same("__nv_rnorm4d(1, 1, 1, 1)", __nv_rnorm4d(1, 1, 1, 1), 0.5);
  near("__nv_rnorm4df(1, 2, 3, 4)", __nv_rnorm4df(1, 2, 3, 4),
       1 / std::sqrt(30.0L), 0.5);
  near("__nv_rhypot(1, 2)", __nv_rhypot(1, 2), 1 / std::sqrt(5.0L), 0.5);
  same("__nv_rhypot(1e300, 1e300) is finite", __nv_rhypot(1e300, 1e300) > 0,
       true);
  near("__nv_rhypot(1e300, 1e300)", __nv_rhypot(1e300, 1e300),
       1 / (std::sqrt(2.0L) * static_cast<long double>(1e300)), 0.5);
  same("__nv_rhypotf(3, 4)", __nv_rhypotf(3, 4), 0.2f);
  same("__nv_rhypotf(nan, -inf)", __nv_rhypotf(NaNF, -InfF), 0.0f);
  const double Five[] = {1, 1, 1, 1, 1};
  const float Three[] = {2, 3, 6};
  near("__nv_norm(5, ones)", __nv_norm(5, Five), std::sqrt(5.0L), 0.5);
  near("__nv_rnorm(5, ones)", __nv_rnorm(5, Five), 1 / std::sqrt(5.0L), 0.5);
  same("__nv_normf(3, {2, 3, 6})", __nv_normf(3, Three), 7.0f);
  same("__nv_normf(2, {2, 3})", __nv_normf(2, Three), std::sqrt(13.0f));
  near("__nv_rnormf(3, {2, 3, 6})", __nv_rnormf(3, Three), 1 / 7.0L, 0.5);
  same("__nv_norm(0, ...)", __nv_norm(0, Five), 0.0);

  // The high-word reciprocal: 20 mantissa bits in, and out, subnormals
  // flushed.
  same("__nv_rcp64h(2)", __nv_rcp64h(2.0), 0.5);
  same("__nv_rcp64h(-4)", __nv_rcp64h(-4.0), -0.25);
  same("__nv_rcp64h(3)", __nv_rcp64h(3.0),
       __nv_hiloint2double(__nv_double2hiint(1 / 3.0), 0));
  same("__nv_rcp64h(1 + 2^-52)", __nv_rcp64h(1 + 0x1p-52), 1.0);
  same("__nv_rcp64h(1e-310)", __nv_rcp64h(1e-310), Inf);
  same("__nv_rcp64h(-1e308)", __nv_rcp64h(-1e308), -0.0);
  same("__nv_rcp64h(nan)", __nv_rcp64h(NaN), NaN);
  same("__nv_rcp64h(-0)", __nv_rcp64h(-0.0), -Inf);
}

//===----------------------------------------------------------------------===//
// Fast intrinsics
//===----------------------------------------------------------------------===//

void checkFastIntrinsics() {
  SAME1(__nv_fast_sinf, std::sin, 1.25f);
  SAME1(__nv_fast_cosf, std::cos, 1.25f);
  SAME1(__nv_fast_tanf, std::tan, 1.25f);
  SAME1(__nv_fast_expf, std::exp, -3.5f);
  SAME1(__nv_fast_exp10f, ::exp10f, 2.5f);
  SAME1(__nv_fast_logf, std::log, 3.5f);
  SAME1(__nv_fast_log2f, std::log2, 3.5f);
  SAME1(__nv_fast_log10f, std::log10, 3.5f);
  SAME2(__nv_fast_powf, std::pow, 1.5f, 7.25f);
  same("__nv_fast_fdividef(1, 3)", __nv_fast_fdividef(1.0f, 3.0f),
       1.0f / opaque(3.0f));
  same("__nv_fast_fdividef(inf, 2)", __nv_fast_fdividef(InfF, 2.0f), InfF);
  // CUDA's documented quirks for huge divisors.
  same("__nv_fast_fdividef(1e30, 2^127)", __nv_fast_fdividef(1e30f, 0x1p127f),
       0.0f);
  same("__nv_fast_fdividef(-1, 2^127)", __nv_fast_fdividef(-1.0f, 0x1p127f),
       -0.0f);
  same("__nv_fast_fdividef(inf, 2^127)", __nv_fast_fdividef(InfF, 0x1p127f),
       NaNF);
  same("__nv_fast_fdividef(1, 2^126)", __nv_fast_fdividef(1.0f, 0x1p126f),
       0x1p-126f);
}

//===----------------------------------------------------------------------===//
// The caller's rounding mode
//===----------------------------------------------------------------------===//

void checkRoundingModeKept() {
  same("rounding mode is round-to-nearest after the checks", std::fegetround(),
       FE_TONEAREST);
  // The functions round as named whatever the caller's mode, and leave that
  // mode alone.
  std::fesetround(FE_UPWARD);
  float Add = __nv_fadd_rn(1.0f, 0x1p-30f);
  double Div = __nv_ddiv_rz(2.0, 3.0);
  int Int = __nv_float2int_rn(2.5f);
  double Sin = __nv_sinpi(1.0 / 6);
  int Mode = std::fegetround();
  std::fesetround(FE_TONEAREST);
  same("__nv_fadd_rn under FE_UPWARD", Add, 1.0f);
  same("__nv_ddiv_rz under FE_UPWARD", Div, 0x1.5555555555555p-1);
  same("__nv_float2int_rn under FE_UPWARD", Int, 2);
  same("__nv_sinpi(1/6) under FE_UPWARD is finite", std::isfinite(Sin), true);
  same("caller's FE_UPWARD kept", Mode, FE_UPWARD);
}

} // namespace

int main() {
  checkLibmWrappers();
  checkClassification();
  checkPointerResults();
  checkRoundingArithmetic();
  checkConversions();
  checkIntegerHelpers();
  checkSimd();
  checkSpecialFunctions();
  checkReciprocalsAndNorms();
  checkFastIntrinsics();
  checkRoundingModeKept();
  if (Failures) {
    std::printf("%d of %d checks failed\n", Failures, Checks);
    return 1;
  }
  std::printf("all %d checks passed\n", Checks);
  return 0;
}
