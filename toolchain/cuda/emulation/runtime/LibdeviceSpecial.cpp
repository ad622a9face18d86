//===- LibdeviceSpecial.cpp - libdevice functions without a libm match ----===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The libdevice functions that the host's libm lacks: sin(pi x) and
/// cos(pi x), the inverse error functions, the scaled complementary error
/// function, the standard normal distribution and its inverse, and the
/// modified Bessel functions I0 and I1. They are computed here to within
/// about an ulp of double precision, carrying intermediate results in long
/// double (64 mantissa bits on x86-64) where double alone would lose a few
/// ulps; the float versions round the double result.
///
//===----------------------------------------------------------------------===//

#include <cmath>
#include <cstdint>
#include <limits>

namespace {

constexpr double Inf = std::numeric_limits<double>::infinity();
constexpr double NaN = std::numeric_limits<double>::quiet_NaN();
constexpr double Pi = 3.141592653589793116;
// Pi - double(Pi), so that Pi + PiLow is pi to about 107 bits.
constexpr double PiLow = 1.2246467991473532e-16;
constexpr double SqrtPi = 1.772453850905516;
constexpr double Sqrt2 = 1.4142135623730951;
// 1/sqrt(2) as a sum of two doubles.
constexpr double InvSqrt2 = 0.7071067811865476;
constexpr double InvSqrt2Low = -4.833646656726457e-17;
constexpr double Epsilon = std::numeric_limits<double>::epsilon();

using Wide = long double;
constexpr Wide PiWide = 3.141592653589793238462643383279502884L;
constexpr Wide WideEpsilon = std::numeric_limits<Wide>::epsilon();

//===----------------------------------------------------------------------===//
// sin(pi x) and cos(pi x)
//===----------------------------------------------------------------------===//

/// sin(pi x) and cos(pi x), exact at integers and half-integers. The
/// argument is reduced exactly to x = k/2 + y with |y| <= 1/4; then pi y is
/// formed as an unevaluated sum of two doubles, so the only errors are the
/// libm sin and cos of a small argument and a first-order correction.
void sinCosPi(double X, double *Sin, double *Cos) {
  if (!std::isfinite(X)) {
    *Sin = *Cos = NaN;
    return;
  }
  double Magnitude = std::fabs(X);
  if (Magnitude >= 0x1p52) {
    // Every such double is an integer: sin is zero and cos is the parity.
    // IEEE 754 gives sinPi(n) the sign of n and cosPi a +0 at half-integers.
    *Sin = std::copysign(0.0, X);
    bool Odd = Magnitude < 0x1p53 && (static_cast<int64_t>(Magnitude) & 1);
    *Cos = Odd ? -1.0 : 1.0;
    return;
  }
  // 2X is exact here, and so are K and Y.
  double K = std::nearbyint(2 * X);
  double Y = X - K / 2;
  double Hi = Y * Pi;
  double Lo = std::fma(Y, Pi, -Hi) + Y * PiLow;
  double S = std::sin(Hi);
  double C = std::cos(Hi);
  double SinY = S + Lo * C;
  double CosY = C - Lo * S;
  switch (static_cast<uint64_t>(static_cast<int64_t>(K)) & 3) {
  case 0:
    *Sin = SinY;
    *Cos = CosY;
    break;
  case 1:
    *Sin = CosY;
    *Cos = -SinY;
    break;
  case 2:
    *Sin = -SinY;
    *Cos = -CosY;
    break;
  default:
    *Sin = -CosY;
    *Cos = SinY;
    break;
  }
  if (*Sin == 0)
    *Sin = std::copysign(0.0, X);
  if (*Cos == 0)
    *Cos = 0.0;
}

//===----------------------------------------------------------------------===//
// The scaled complementary error function and friends
//===----------------------------------------------------------------------===//

/// exp(x^2) erfc(x). Where erfc is a normal double (x below about 26.5) the
/// product is formed directly in long double, with x^2 split exactly into
/// P + E so that nothing is lost to the rounding of x^2. Beyond,
/// the asymptotic series 1/(x sqrt(pi)) sum_k (-1)^k (2k-1)!! / (2x^2)^k is
/// summed while its terms still shrink; at x >= 26 it converges to far below
/// double precision within a dozen terms.
double erfcx(double X) {
  if (std::isnan(X))
    return X;
  // exp(x^2) overflows from |x| = 26.65 on (and x^2 itself may).
  if (X < -27)
    return Inf;
  if (X < 26) {
    double P = X * X;
    double E = std::fma(X, X, -P);
    return static_cast<double>(std::exp(static_cast<Wide>(P)) *
                               std::exp(static_cast<Wide>(E)) *
                               std::erfc(static_cast<Wide>(X)));
  }
  if (std::isinf(X))
    return 0;
  double InvTwoX2 = 1 / (2 * X * X);
  double Sum = 1, Term = 1;
  for (int K = 1; K < 40; ++K) {
    double Next = -Term * (2 * K - 1) * InvTwoX2;
    if (std::fabs(Next) >= std::fabs(Term))
      break;
    Term = Next;
    Sum += Term;
    if (std::fabs(Term) < Epsilon * 1e-3)
      break;
  }
  // Divided by X last: near the top of the range X * SqrtPi would overflow.
  return Sum / SqrtPi / X;
}

/// log(erfc(x)) for x >= 0, without underflow: -x^2 + log(erfcx(x)).
/// \p Offset is added to -x^2 before anything else, to cancel it exactly
/// when the caller compares against a logarithm of similar size.
double logErfc(double X, double Offset) {
  double P = X * X;
  double E = std::fma(X, X, -P);
  return ((Offset - P) - E) + std::log(erfcx(X));
}

/// The standard normal distribution function, erfc(-x/sqrt(2)) / 2. The
/// argument -x/sqrt(2) is formed as T + TLow exactly enough, and erfc(T +
/// TLow) = erfc(T) (1 - 2 TLow / (sqrt(pi) erfcx(T))) to first order, since
/// the derivative of erfc is -2 exp(-T^2)/sqrt(pi). Without the correction,
/// the rounding of T alone would cost hundreds of ulps in the far tail.
double normcdf(double X) {
  if (std::isnan(X))
    return X;
  double T = -X * InvSqrt2;
  Wide Erfc = std::erfc(static_cast<Wide>(T));
  // Nothing to correct at the ends, where erfc is 0 or 2.
  if (Erfc == 0 || !std::isfinite(T))
    return static_cast<double>(Erfc / 2);
  double TLow = std::fma(-X, InvSqrt2, -T) - X * InvSqrt2Low;
  Wide Correction = 1 - 2 * static_cast<Wide>(TLow) / (SqrtPi * erfcx(T));
  return static_cast<double>(Erfc * Correction / 2);
}

//===----------------------------------------------------------------------===//
// Inverse error functions
//===----------------------------------------------------------------------===//

/// erf^-1(x) for |x| <= 1/2 by Newton's method on erf, from the first two
/// terms of the Maclaurin series of erfinv. erf is concave on y > 0 and the
/// start lies below the root, so the iterates rise monotonically to it.
double erfinvCentral(double X) {
  double Magnitude = std::fabs(X);
  double Y = Magnitude * (SqrtPi / 2) * (1 + Pi * Magnitude * Magnitude / 12);
  for (int I = 0; I < 20; ++I) {
    double Step = (std::erf(Y) - Magnitude) / (2 / SqrtPi * std::exp(-Y * Y));
    Y -= Step;
    if (std::fabs(Step) <= Epsilon * Y)
      break;
  }
  return std::copysign(Y, X);
}

/// erfc^-1(z) for 0 < z <= 1/2 (a result above 0.47) by Newton's method on
/// log(erfc(y)) = log(z), which stays well scaled down to the smallest
/// subnormal z, where exp(-y^2) itself would underflow. The derivative of
/// log(erfc(y)) is -2 / (sqrt(pi) erfcx(y)). log(erfc) is concave, so from
/// any start the iterates land right of the root and then fall to it.
double erfcinvTail(double Z) {
  double LogZ = std::log(Z);
  // erfc(y) ~ exp(-y^2) / (y sqrt(pi)): two rounds of y^2 = -log(z sqrt(pi)
  // y) from y^2 = -log(z), floored near the smallest possible root.
  double Y = std::sqrt(-LogZ);
  for (int I = 0; I < 2; ++I)
    Y = std::sqrt(std::fmax(-LogZ - std::log(SqrtPi * Y), 0.2));
  for (int I = 0; I < 50; ++I) {
    double Residual = logErfc(Y, -LogZ);
    double Step = Residual * SqrtPi * erfcx(Y) / 2;
    Y += Step;
    if (std::fabs(Step) <= Epsilon * Y)
      break;
  }
  return Y;
}

double erfcinv(double Z) {
  if (std::isnan(Z))
    return Z;
  if (Z <= 0 || Z >= 2)
    return Z == 0 ? Inf : Z == 2 ? -Inf : NaN;
  // erfcinv(2 - z) = -erfcinv(z); 2 - z and 1 - z are exact where used.
  if (Z > 1)
    return -erfcinv(2 - Z);
  if (Z >= 0.5)
    return erfinvCentral(1 - Z);
  return erfcinvTail(Z);
}

double erfinv(double X) {
  if (std::isnan(X))
    return X;
  double Magnitude = std::fabs(X);
  if (Magnitude >= 1)
    return Magnitude == 1 ? std::copysign(Inf, X) : NaN;
  if (Magnitude <= 0.5)
    return erfinvCentral(X);
  // 1 - |x| is exact for |x| >= 1/2; erfinv(x) = erfcinv(1 - x).
  return std::copysign(erfcinvTail(1 - Magnitude), X);
}

/// The inverse of the standard normal distribution function,
/// -sqrt(2) erfcinv(2p) (2p is exact).
double normcdfinv(double P) {
  double R = -Sqrt2 * erfcinv(2 * P);
  return R == 0 ? 0.0 : R;
}

//===----------------------------------------------------------------------===//
// Modified Bessel functions of the first kind
//===----------------------------------------------------------------------===//

/// I_nu(x) for nu = 0 or 1 and x >= 0. Below 25 the power series
/// sum_k (x/2)^(2k+nu) / (k! (k+nu)!), whose terms are all positive. Above,
/// the asymptotic expansion e^x / sqrt(2 pi x) sum_k (-1)^k a_k(nu) / x^k
/// with a_k = prod_{j<=k} (4nu^2 - (2j-1)^2) / (8j), summed until its terms
/// stop shrinking (at x >= 25 they fall below 1e-20 first). Both run in long
/// double: the rounding errors of some 50 recurrence steps would otherwise
/// add up to several ulps, and e^x stays finite there up to the double
/// range's end.
double besselI(int Nu, double X) {
  if (std::isnan(X))
    return X;
  if (X < 25) {
    Wide Quarter = static_cast<Wide>(X) * X / 4;
    Wide Term = Nu ? static_cast<Wide>(X) / 2 : 1;
    Wide Sum = Term;
    for (int K = 1; K < 200; ++K) {
      Term *= Quarter / (static_cast<Wide>(K) * (K + Nu));
      Sum += Term;
      if (Term < Sum * WideEpsilon)
        break;
    }
    return static_cast<double>(Sum);
  }
  if (std::isinf(X))
    return Inf;
  Wide Mu = 4 * Nu * Nu;
  Wide Sum = 1, Term = 1;
  for (int K = 1; K < 100; ++K) {
    Wide Odd = 2 * K - 1;
    Wide Next = -Term * (Mu - Odd * Odd) / (8 * K * static_cast<Wide>(X));
    if (std::fabs(Next) >= std::fabs(Term))
      break;
    Term = Next;
    Sum += Term;
    if (std::fabs(Term) < WideEpsilon)
      break;
  }
  return static_cast<double>(std::exp(static_cast<Wide>(X)) * Sum /
                             std::sqrt(2 * PiWide * X));
}

// I0 is even and I1 odd.
double besselI0(double X) { return besselI(0, std::fabs(X)); }

double besselI1(double X) { return std::copysign(besselI(1, std::fabs(X)), X); }

} // namespace

extern "C" {

double __nv_sinpi(double A) {
  double S, C;
  sinCosPi(A, &S, &C);
  return S;
}

float __nv_sinpif(float A) { return static_cast<float>(__nv_sinpi(A)); }

double __nv_cospi(double A) {
  double S, C;
  sinCosPi(A, &S, &C);
  return C;
}

float __nv_cospif(float A) { return static_cast<float>(__nv_cospi(A)); }

void __nv_sincospi(double A, double *S, double *C) { sinCosPi(A, S, C); }

void __nv_sincospif(float A, float *S, float *C) {
  double SinD, CosD;
  sinCosPi(A, &SinD, &CosD);
  *S = static_cast<float>(SinD);
  *C = static_cast<float>(CosD);
}

double __nv_erfinv(double A) { return erfinv(A); }
float __nv_erfinvf(float A) { return static_cast<float>(erfinv(A)); }
double __nv_erfcinv(double A) { return erfcinv(A); }
float __nv_erfcinvf(float A) { return static_cast<float>(erfcinv(A)); }
double __nv_erfcx(double A) { return erfcx(A); }
float __nv_erfcxf(float A) { return static_cast<float>(erfcx(A)); }
double __nv_normcdf(double A) { return normcdf(A); }
float __nv_normcdff(float A) { return static_cast<float>(normcdf(A)); }
double __nv_normcdfinv(double A) { return normcdfinv(A); }
float __nv_normcdfinvf(float A) { return static_cast<float>(normcdfinv(A)); }
double __nv_cyl_bessel_i0(double A) { return besselI0(A); }
float __nv_cyl_bessel_i0f(float A) { return static_cast<float>(besselI0(A)); }
double __nv_cyl_bessel_i1(double A) { return besselI1(A); }
float __nv_cyl_bessel_i1f(float A) { return static_cast<float>(besselI1(A)); }

} // extern "C"
