//===- LibdeviceRounding.cpp - libdevice rounding modes and conversions ---===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The libdevice functions whose name carries an IEEE rounding mode (`_rn`
/// to nearest even, `_rz` towards zero, `_ru` up, `_rd` down): arithmetic
/// (`__nv_fadd_rz`, `__nv_dmul_ru`, `__nv_fmaf_rd`, `__nv_frcp_rn`, ...) and
/// conversions (`__nv_double2float_ru`, `__nv_ll2float_rz`,
/// `__nv_float2int_rn`, ...), plus the other conversions and
/// reinterpretations (`__nv_float_as_int`, `__nv_hiloint2double`, the half
/// precision helpers, ...).
///
/// Floating-point results are computed by the host's own IEEE arithmetic
/// with its dynamic rounding mode set for the one operation (and the caller's
/// mode restored). `FENV_ACCESS` makes the compiler treat that mode as
/// dynamic: it neither folds nor moves the operations across `fesetround`.
///
/// Conversions to integers round to an integral value first and then
/// saturate as PTX `cvt` does: NaN becomes 0, values beyond the destination's
/// range its minimum or maximum (C++ would leave those undefined).
///
//===----------------------------------------------------------------------===//

#pragma STDC FENV_ACCESS ON

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace {

/// Sets the rounding mode for its lifetime, then restores the caller's. (The
/// mode is usually already round-to-nearest, which the `_rn` functions then
/// leave untouched.)
class RoundingScope {
public:
  explicit RoundingScope(int Mode)
      : Saved(std::fegetround()), Changed(Saved != Mode) {
    if (Changed)
      std::fesetround(Mode);
  }
  ~RoundingScope() {
    if (Changed)
      std::fesetround(Saved);
  }
  RoundingScope(const RoundingScope &) = delete;
  RoundingScope &operator=(const RoundingScope &) = delete;

private:
  int Saved;
  bool Changed;
};

template <typename To, typename From> To bitCast(From Value) {
  static_assert(sizeof(To) == sizeof(From), "sizes differ");
  To Result;
  std::memcpy(&Result, &Value, sizeof(To));
  return Result;
}

/// The rounding modes by the suffixes of libdevice's names.
constexpr int RN = FE_TONEAREST;
constexpr int RZ = FE_TOWARDZERO;
constexpr int RU = FE_UPWARD;
constexpr int RD = FE_DOWNWARD;

//===----------------------------------------------------------------------===//
// Operations in a given rounding mode
//===----------------------------------------------------------------------===//

template <int Mode, typename T> T roundedAdd(T A, T B) {
  RoundingScope Scope(Mode);
  return A + B;
}

template <int Mode, typename T> T roundedSub(T A, T B) {
  RoundingScope Scope(Mode);
  return A - B;
}

template <int Mode, typename T> T roundedMul(T A, T B) {
  RoundingScope Scope(Mode);
  return A * B;
}

template <int Mode, typename T> T roundedDiv(T A, T B) {
  RoundingScope Scope(Mode);
  return A / B;
}

// glibc's fma and fmaf round in the current mode, as does the instruction.
template <int Mode, typename T> T roundedFma(T A, T B, T C) {
  RoundingScope Scope(Mode);
  return std::fma(A, B, C);
}

template <int Mode, typename T> T roundedSqrt(T A) {
  RoundingScope Scope(Mode);
  return std::sqrt(A);
}

/// Converts between floating-point types or from an integer to a
/// floating-point type.
template <int Mode, typename To, typename From> To roundedConvert(From Value) {
  RoundingScope Scope(Mode);
  return static_cast<To>(Value);
}

/// An unsigned 64-bit integer converted in \p Mode. Values below 2^63 go
/// through the signed conversion (one rounding). Larger ones are halved
/// first, keeping the lost low bit as a sticky bit so that the single
/// rounding of the halved value rounds the same way as the exact value would;
/// doubling the result is then exact. (x86-64 has no unsigned 64-bit
/// conversion before AVX-512; this keeps the directed modes independent of
/// how the compiler would emulate one.)
template <int Mode, typename To> To convertUnsigned64(uint64_t Value) {
  if (Value < (uint64_t(1) << 63))
    return roundedConvert<Mode, To>(static_cast<int64_t>(Value));
  To Half = roundedConvert<Mode, To>(
      static_cast<int64_t>((Value >> 1) | (Value & 1)));
  return Half * 2;
}

//===----------------------------------------------------------------------===//
// Conversions to integers
//===----------------------------------------------------------------------===//

/// \p X rounded to an integral value in \p Mode (NaN and infinities as is).
template <int Mode, typename T> T roundToIntegral(T X) {
  switch (Mode) {
  case FE_TOWARDZERO:
    return std::trunc(X);
  case FE_UPWARD:
    return std::ceil(X);
  case FE_DOWNWARD:
    return std::floor(X);
  default: {
    RoundingScope Scope(FE_TONEAREST);
    return std::nearbyint(X);
  }
  }
}

/// The integral value \p X as an \p Int, saturating like PTX `cvt`.
template <typename Int, typename T> Int saturate(T X) {
  using Limits = std::numeric_limits<Int>;
  if (std::isnan(X))
    return 0;
  // 2^31, 2^32, 2^63 or 2^64: the first value above the range, exact in T.
  const T Above = std::ldexp(T(1), Limits::digits);
  const T Lowest = std::is_signed<Int>::value ? -Above : T(0);
  if (X < Lowest)
    return Limits::min();
  if (X >= Above)
    return Limits::max();
  return static_cast<Int>(X);
}

template <int Mode, typename Int, typename T> Int toInteger(T X) {
  return saturate<Int>(roundToIntegral<Mode>(X));
}

//===----------------------------------------------------------------------===//
// Half precision
//===----------------------------------------------------------------------===//

/// \p F rounded to nearest even as IEEE binary16 bits. NaN becomes the
/// canonical half NaN 0x7fff.
uint16_t floatToHalf(float F) {
  uint32_t Bits = bitCast<uint32_t>(F);
  uint16_t Sign = static_cast<uint16_t>((Bits >> 16) & 0x8000);
  uint32_t Magnitude = Bits & 0x7fffffff;
  if (Magnitude > 0x7f800000)
    return 0x7fff;
  // 65520 (0x477ff000), halfway between the largest half 65504 and 2^16,
  // rounds to the even neighbour, infinity.
  if (Magnitude >= 0x477ff000)
    return Sign | 0x7c00;
  unsigned Shift;    // the mantissa bits the half drops
  uint32_t Mantissa; // the float mantissa with its hidden bit, if any
  uint32_t HalfBase; // the half's exponent field, pre-shifted
  if (Magnitude >= 0x38800000) {
    // Normal half: rebias the exponent (127 - 15 = 112) and drop 13 bits.
    Shift = 13;
    Mantissa = Magnitude & 0x7fffff;
    HalfBase = ((Magnitude >> 23) - 112) << 10;
  } else {
    // Subnormal half (units of 2^-24) or zero: 0x38800000 is 2^-14.
    int Exponent = static_cast<int>(Magnitude >> 23);
    if (Exponent < 102) // below 2^-25: rounds to zero
      return Sign;
    Shift = static_cast<unsigned>(126 - Exponent);
    Mantissa = (Magnitude & 0x7fffff) | 0x800000;
    HalfBase = 0;
  }
  uint32_t Half = HalfBase + (Mantissa >> Shift);
  uint32_t Rest = Mantissa & ((1u << Shift) - 1);
  uint32_t Halfway = 1u << (Shift - 1);
  // A carry out of the mantissa correctly bumps the exponent.
  if (Rest > Halfway || (Rest == Halfway && (Half & 1)))
    ++Half;
  return static_cast<uint16_t>(Sign | Half);
}

/// IEEE binary16 bits \p H as a float (exact).
float halfToFloat(uint16_t H) {
  uint32_t Sign = static_cast<uint32_t>(H & 0x8000) << 16;
  uint32_t Exponent = (H >> 10) & 0x1f;
  uint32_t Mantissa = H & 0x3ff;
  if (Exponent == 0x1f)
    return bitCast<float>(Sign | 0x7f800000 | (Mantissa << 13));
  if (Exponent == 0) {
    float Magnitude = std::ldexp(static_cast<float>(Mantissa), -24);
    return Sign ? -Magnitude : Magnitude;
  }
  return bitCast<float>(Sign | ((Exponent + 112) << 23) | (Mantissa << 13));
}

} // namespace

extern "C" {

//===----------------------------------------------------------------------===//
// Single-precision arithmetic
//===----------------------------------------------------------------------===//

float __nv_fadd_rn(float A, float B) { return roundedAdd<RN>(A, B); }
float __nv_fadd_rz(float A, float B) { return roundedAdd<RZ>(A, B); }
float __nv_fadd_ru(float A, float B) { return roundedAdd<RU>(A, B); }
float __nv_fadd_rd(float A, float B) { return roundedAdd<RD>(A, B); }
float __nv_fsub_rn(float A, float B) { return roundedSub<RN>(A, B); }
float __nv_fsub_rz(float A, float B) { return roundedSub<RZ>(A, B); }
float __nv_fsub_ru(float A, float B) { return roundedSub<RU>(A, B); }
float __nv_fsub_rd(float A, float B) { return roundedSub<RD>(A, B); }
float __nv_fmul_rn(float A, float B) { return roundedMul<RN>(A, B); }
float __nv_fmul_rz(float A, float B) { return roundedMul<RZ>(A, B); }
float __nv_fmul_ru(float A, float B) { return roundedMul<RU>(A, B); }
float __nv_fmul_rd(float A, float B) { return roundedMul<RD>(A, B); }
float __nv_fdiv_rn(float A, float B) { return roundedDiv<RN>(A, B); }
float __nv_fdiv_rz(float A, float B) { return roundedDiv<RZ>(A, B); }
float __nv_fdiv_ru(float A, float B) { return roundedDiv<RU>(A, B); }
float __nv_fdiv_rd(float A, float B) { return roundedDiv<RD>(A, B); }
float __nv_frcp_rn(float A) { return roundedDiv<RN>(1.0f, A); }
float __nv_frcp_rz(float A) { return roundedDiv<RZ>(1.0f, A); }
float __nv_frcp_ru(float A) { return roundedDiv<RU>(1.0f, A); }
float __nv_frcp_rd(float A) { return roundedDiv<RD>(1.0f, A); }
float __nv_fsqrt_rn(float A) { return roundedSqrt<RN>(A); }
float __nv_fsqrt_rz(float A) { return roundedSqrt<RZ>(A); }
float __nv_fsqrt_ru(float A) { return roundedSqrt<RU>(A); }
float __nv_fsqrt_rd(float A) { return roundedSqrt<RD>(A); }

float __nv_fmaf_rn(float A, float B, float C) {
  return roundedFma<RN>(A, B, C);
}

float __nv_fmaf_rz(float A, float B, float C) {
  return roundedFma<RZ>(A, B, C);
}

float __nv_fmaf_ru(float A, float B, float C) {
  return roundedFma<RU>(A, B, C);
}

float __nv_fmaf_rd(float A, float B, float C) {
  return roundedFma<RD>(A, B, C);
}

// The `_ieee` variants differ on the device only in never flushing
// subnormals, which the host never does anyway.
float __nv_fmaf_ieee_rn(float A, float B, float C) {
  return roundedFma<RN>(A, B, C);
}

float __nv_fmaf_ieee_rz(float A, float B, float C) {
  return roundedFma<RZ>(A, B, C);
}

float __nv_fmaf_ieee_ru(float A, float B, float C) {
  return roundedFma<RU>(A, B, C);
}

float __nv_fmaf_ieee_rd(float A, float B, float C) {
  return roundedFma<RD>(A, B, C);
}

// 1/sqrt(A) correctly rounded to nearest. The long double estimate is within
// a hair of the exact value, so its rounding to float is the correctly
// rounded result or a neighbour; the exact sign of M*M*A - 1, for M the
// midpoint between the candidate and a neighbour, says which. (M has at most
// 25 significant bits, so M*M is exact in the 64-bit long double mantissa
// and fmal rounds the full M*M*A - 1 only once.) A midpoint is never the
// exact result: that would need A = 1/M^2 with M not a power of two.
float __nv_frsqrt_rn(float A) {
  if (std::isnan(A) || A < 0)
    return std::numeric_limits<float>::quiet_NaN();
  if (A == 0)
    return std::copysign(std::numeric_limits<float>::infinity(), A);
  if (std::isinf(A))
    return 0.0f;
  RoundingScope Scope(FE_TONEAREST);
  float R = static_cast<float>(1.0L / std::sqrt(static_cast<long double>(A)));
  auto AboveMidpoint = [A](float Lo, float Hi) {
    long double M = (static_cast<long double>(Lo) + Hi) / 2;
    return std::fma(M * M, static_cast<long double>(A), -1.0L) < 0;
  };
  float Up = std::nextafter(R, std::numeric_limits<float>::infinity());
  float Down = std::nextafter(R, 0.0f);
  if (AboveMidpoint(R, Up))
    return Up;
  if (!AboveMidpoint(Down, R))
    return Down;
  return R;
}

//===----------------------------------------------------------------------===//
// Double-precision arithmetic
//===----------------------------------------------------------------------===//

double __nv_dadd_rn(double A, double B) { return roundedAdd<RN>(A, B); }
double __nv_dadd_rz(double A, double B) { return roundedAdd<RZ>(A, B); }
double __nv_dadd_ru(double A, double B) { return roundedAdd<RU>(A, B); }
double __nv_dadd_rd(double A, double B) { return roundedAdd<RD>(A, B); }
double __nv_dsub_rn(double A, double B) { return roundedSub<RN>(A, B); }
double __nv_dsub_rz(double A, double B) { return roundedSub<RZ>(A, B); }
double __nv_dsub_ru(double A, double B) { return roundedSub<RU>(A, B); }
double __nv_dsub_rd(double A, double B) { return roundedSub<RD>(A, B); }
double __nv_dmul_rn(double A, double B) { return roundedMul<RN>(A, B); }
double __nv_dmul_rz(double A, double B) { return roundedMul<RZ>(A, B); }
double __nv_dmul_ru(double A, double B) { return roundedMul<RU>(A, B); }
double __nv_dmul_rd(double A, double B) { return roundedMul<RD>(A, B); }
double __nv_ddiv_rn(double A, double B) { return roundedDiv<RN>(A, B); }
double __nv_ddiv_rz(double A, double B) { return roundedDiv<RZ>(A, B); }
double __nv_ddiv_ru(double A, double B) { return roundedDiv<RU>(A, B); }
double __nv_ddiv_rd(double A, double B) { return roundedDiv<RD>(A, B); }
double __nv_drcp_rn(double A) { return roundedDiv<RN>(1.0, A); }
double __nv_drcp_rz(double A) { return roundedDiv<RZ>(1.0, A); }
double __nv_drcp_ru(double A) { return roundedDiv<RU>(1.0, A); }
double __nv_drcp_rd(double A) { return roundedDiv<RD>(1.0, A); }
double __nv_dsqrt_rn(double A) { return roundedSqrt<RN>(A); }
double __nv_dsqrt_rz(double A) { return roundedSqrt<RZ>(A); }
double __nv_dsqrt_ru(double A) { return roundedSqrt<RU>(A); }
double __nv_dsqrt_rd(double A) { return roundedSqrt<RD>(A); }

double __nv_fma_rn(double A, double B, double C) {
  return roundedFma<RN>(A, B, C);
}

double __nv_fma_rz(double A, double B, double C) {
  return roundedFma<RZ>(A, B, C);
}

double __nv_fma_ru(double A, double B, double C) {
  return roundedFma<RU>(A, B, C);
}

double __nv_fma_rd(double A, double B, double C) {
  return roundedFma<RD>(A, B, C);
}

//===----------------------------------------------------------------------===//
// Floating-point to floating-point conversions
//===----------------------------------------------------------------------===//

float __nv_double2float_rn(double A) { return roundedConvert<RN, float>(A); }

float __nv_double2float_rz(double A) { return roundedConvert<RZ, float>(A); }

float __nv_double2float_ru(double A) { return roundedConvert<RU, float>(A); }
float __nv_double2float_rd(double A) { return roundedConvert<RD, float>(A); }

unsigned short __nv_float2half_rn(float A) { return floatToHalf(A); }
float __nv_half2float(unsigned short A) { return halfToFloat(A); }

//===----------------------------------------------------------------------===//
// Integer to floating-point conversions
//===----------------------------------------------------------------------===//

// Exact: every int and unsigned int is a double.
double __nv_int2double_rn(int A) { return A; }
double __nv_uint2double_rn(unsigned int A) { return A; }

float __nv_int2float_rn(int A) { return roundedConvert<RN, float>(A); }
float __nv_int2float_rz(int A) { return roundedConvert<RZ, float>(A); }
float __nv_int2float_ru(int A) { return roundedConvert<RU, float>(A); }
float __nv_int2float_rd(int A) { return roundedConvert<RD, float>(A); }

// Through the signed 64-bit conversion, which holds every unsigned int.
float __nv_uint2float_rn(unsigned int A) {
  return roundedConvert<RN, float>(static_cast<int64_t>(A));
}

float __nv_uint2float_rz(unsigned int A) {
  return roundedConvert<RZ, float>(static_cast<int64_t>(A));
}

float __nv_uint2float_ru(unsigned int A) {
  return roundedConvert<RU, float>(static_cast<int64_t>(A));
}

float __nv_uint2float_rd(unsigned int A) {
  return roundedConvert<RD, float>(static_cast<int64_t>(A));
}

float __nv_ll2float_rn(long long A) { return roundedConvert<RN, float>(A); }
float __nv_ll2float_rz(long long A) { return roundedConvert<RZ, float>(A); }
float __nv_ll2float_ru(long long A) { return roundedConvert<RU, float>(A); }
float __nv_ll2float_rd(long long A) { return roundedConvert<RD, float>(A); }

double __nv_ll2double_rn(long long A) { return roundedConvert<RN, double>(A); }

double __nv_ll2double_rz(long long A) { return roundedConvert<RZ, double>(A); }

double __nv_ll2double_ru(long long A) { return roundedConvert<RU, double>(A); }
double __nv_ll2double_rd(long long A) { return roundedConvert<RD, double>(A); }

float __nv_ull2float_rn(unsigned long long A) {
  return convertUnsigned64<RN, float>(A);
}

float __nv_ull2float_rz(unsigned long long A) {
  return convertUnsigned64<RZ, float>(A);
}

float __nv_ull2float_ru(unsigned long long A) {
  return convertUnsigned64<RU, float>(A);
}

float __nv_ull2float_rd(unsigned long long A) {
  return convertUnsigned64<RD, float>(A);
}

double __nv_ull2double_rn(unsigned long long A) {
  return convertUnsigned64<RN, double>(A);
}

double __nv_ull2double_rz(unsigned long long A) {
  return convertUnsigned64<RZ, double>(A);
}

double __nv_ull2double_ru(unsigned long long A) {
  return convertUnsigned64<RU, double>(A);
}

double __nv_ull2double_rd(unsigned long long A) {
  return convertUnsigned64<RD, double>(A);
}

//===----------------------------------------------------------------------===//
// Floating-point to integer conversions (saturating, NaN to 0)
//===----------------------------------------------------------------------===//

int __nv_float2int_rn(float A) { return toInteger<RN, int>(A); }
int __nv_float2int_rz(float A) { return toInteger<RZ, int>(A); }
int __nv_float2int_ru(float A) { return toInteger<RU, int>(A); }
int __nv_float2int_rd(float A) { return toInteger<RD, int>(A); }

unsigned int __nv_float2uint_rn(float A) {
  return toInteger<RN, unsigned int>(A);
}

unsigned int __nv_float2uint_rz(float A) {
  return toInteger<RZ, unsigned int>(A);
}

unsigned int __nv_float2uint_ru(float A) {
  return toInteger<RU, unsigned int>(A);
}

unsigned int __nv_float2uint_rd(float A) {
  return toInteger<RD, unsigned int>(A);
}

long long __nv_float2ll_rn(float A) { return toInteger<RN, long long>(A); }

long long __nv_float2ll_rz(float A) { return toInteger<RZ, long long>(A); }

long long __nv_float2ll_ru(float A) { return toInteger<RU, long long>(A); }

long long __nv_float2ll_rd(float A) { return toInteger<RD, long long>(A); }

unsigned long long __nv_float2ull_rn(float A) {
  return toInteger<RN, unsigned long long>(A);
}

unsigned long long __nv_float2ull_rz(float A) {
  return toInteger<RZ, unsigned long long>(A);
}

unsigned long long __nv_float2ull_ru(float A) {
  return toInteger<RU, unsigned long long>(A);
}

unsigned long long __nv_float2ull_rd(float A) {
  return toInteger<RD, unsigned long long>(A);
}

int __nv_double2int_rn(double A) { return toInteger<RN, int>(A); }
int __nv_double2int_rz(double A) { return toInteger<RZ, int>(A); }
int __nv_double2int_ru(double A) { return toInteger<RU, int>(A); }
int __nv_double2int_rd(double A) { return toInteger<RD, int>(A); }

unsigned int __nv_double2uint_rn(double A) {
  return toInteger<RN, unsigned int>(A);
}

unsigned int __nv_double2uint_rz(double A) {
  return toInteger<RZ, unsigned int>(A);
}

unsigned int __nv_double2uint_ru(double A) {
  return toInteger<RU, unsigned int>(A);
}

unsigned int __nv_double2uint_rd(double A) {
  return toInteger<RD, unsigned int>(A);
}

long long __nv_double2ll_rn(double A) { return toInteger<RN, long long>(A); }

long long __nv_double2ll_rz(double A) { return toInteger<RZ, long long>(A); }

long long __nv_double2ll_ru(double A) { return toInteger<RU, long long>(A); }

long long __nv_double2ll_rd(double A) { return toInteger<RD, long long>(A); }

unsigned long long __nv_double2ull_rn(double A) {
  return toInteger<RN, unsigned long long>(A);
}

unsigned long long __nv_double2ull_rz(double A) {
  return toInteger<RZ, unsigned long long>(A);
}

unsigned long long __nv_double2ull_ru(double A) {
  return toInteger<RU, unsigned long long>(A);
}

unsigned long long __nv_double2ull_rd(double A) {
  return toInteger<RD, unsigned long long>(A);
}

// On the device these are `cvt.rni.s64` (nearest even) and a round half away
// from zero followed by `cvt.rzi.s64`, so they saturate like the above.
long long __nv_llrint(double A) { return toInteger<RN, long long>(A); }

long long __nv_llrintf(float A) { return toInteger<RN, long long>(A); }

long long __nv_llround(double A) { return saturate<long long>(std::round(A)); }
long long __nv_llroundf(float A) { return saturate<long long>(std::round(A)); }

//===----------------------------------------------------------------------===//
// Reinterpretations
//===----------------------------------------------------------------------===//

int __nv_float_as_int(float A) { return bitCast<int>(A); }
unsigned int __nv_float_as_uint(float A) { return bitCast<unsigned int>(A); }
float __nv_int_as_float(int A) { return bitCast<float>(A); }
float __nv_uint_as_float(unsigned int A) { return bitCast<float>(A); }

unsigned long long __nv_double_as_longlong(double A) {
  return bitCast<unsigned long long>(A);
}

double __nv_longlong_as_double(long long A) { return bitCast<double>(A); }

int __nv_double2hiint(double A) {
  return static_cast<int>(bitCast<uint64_t>(A) >> 32);
}

int __nv_double2loint(double A) {
  return static_cast<int>(static_cast<uint32_t>(bitCast<uint64_t>(A)));
}

double __nv_hiloint2double(int Hi, int Lo) {
  return bitCast<double>(
      (static_cast<uint64_t>(static_cast<uint32_t>(Hi)) << 32) |
      static_cast<uint32_t>(Lo));
}

} // extern "C"
