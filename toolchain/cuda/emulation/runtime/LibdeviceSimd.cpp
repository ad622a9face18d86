//===- LibdeviceSimd.cpp - libdevice SIMD video functions on the host -----===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The SIMD functions of libdevice (`__nv_vadd2`, `__nv_vcmpgeu4`, ...), which
/// treat a 32-bit word as two halfwords ("2") or four bytes ("4"), with the
/// results the CUDA Math API documents for the `__v*` intrinsics. Clang
/// declares them for CUDA 9.0 and 9.1 only, but device code compiled against
/// other versions may still call them by name.
///
/// Suffixes: `s` / `u` read the lanes as signed / unsigned integers, `ss` /
/// `us` saturate the result to the signed / unsigned lane range; `vcmp*` sets
/// a true lane to all ones, `vset*` to 1.
///
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdint>

namespace {

enum class Lanes { Signed, Unsigned };

/// Lane \p I of \p Word, \p Bits wide, sign- or zero-extended.
template <unsigned Bits, Lanes Kind> int32_t lane(int Word, unsigned I) {
  uint32_t Value =
      (static_cast<uint32_t>(Word) >> (I * Bits)) & ((1u << Bits) - 1);
  if (Kind == Lanes::Signed && (Value >> (Bits - 1)))
    return static_cast<int32_t>(Value) - (1 << Bits);
  return static_cast<int32_t>(Value);
}

/// Applies \p Op to each pair of lanes of \p A and \p B and packs the low
/// \p Bits bits of each result (arithmetic wraps around within a lane).
template <unsigned Bits, Lanes Kind, typename OpT>
int perLane(int A, int B, OpT Op) {
  uint32_t R = 0;
  for (unsigned I = 0; I < 32 / Bits; ++I) {
    int32_t Result = Op(lane<Bits, Kind>(A, I), lane<Bits, Kind>(B, I));
    R |= (static_cast<uint32_t>(Result) & ((1u << Bits) - 1)) << (I * Bits);
  }
  return static_cast<int>(R);
}

/// The sum over the lanes of \p Op's results.
template <unsigned Bits, Lanes Kind, typename OpT>
int sumLanes(int A, int B, OpT Op) {
  int32_t Sum = 0;
  for (unsigned I = 0; I < 32 / Bits; ++I)
    Sum += Op(lane<Bits, Kind>(A, I), lane<Bits, Kind>(B, I));
  return Sum;
}

/// Clamps \p X to the range of a \p Bits wide lane.
template <unsigned Bits, Lanes Kind> int32_t saturate(int32_t X) {
  const int32_t Lowest = Kind == Lanes::Signed ? -(1 << (Bits - 1)) : 0;
  const int32_t Highest =
      Kind == Lanes::Signed ? (1 << (Bits - 1)) - 1 : (1 << Bits) - 1;
  return std::min(std::max(X, Lowest), Highest);
}

constexpr auto Add = [](int32_t X, int32_t Y) { return X + Y; };
constexpr auto Sub = [](int32_t X, int32_t Y) { return X - Y; };
constexpr auto Neg = [](int32_t X, int32_t) { return -X; };
constexpr auto Abs = [](int32_t X, int32_t) { return X < 0 ? -X : X; };
constexpr auto AbsDiff = [](int32_t X, int32_t Y) {
  return X < Y ? Y - X : X - Y;
};
constexpr auto Min = [](int32_t X, int32_t Y) { return std::min(X, Y); };
constexpr auto Max = [](int32_t X, int32_t Y) { return std::max(X, Y); };
// Rounds half away from zero, as PTX `vavrg` does.
constexpr auto RoundedAverage = [](int32_t X, int32_t Y) {
  int32_t Sum = X + Y;
  return Sum >= 0 ? (Sum + 1) >> 1 : Sum >> 1;
};
constexpr auto TruncatedAverage = [](int32_t X, int32_t Y) {
  return (X + Y) >> 1;
};

template <unsigned Bits, Lanes Kind, typename OpT> auto saturated(OpT Op) {
  return [Op](int32_t X, int32_t Y) { return saturate<Bits, Kind>(Op(X, Y)); };
}

/// A comparison lane: all ones (`vcmp*`) or 1 (`vset*`) when \p Cmp holds.
template <typename CmpT> auto mask(CmpT Cmp) {
  return [Cmp](int32_t X, int32_t Y) { return Cmp(X, Y) ? -1 : 0; };
}
template <typename CmpT> auto flag(CmpT Cmp) {
  return [Cmp](int32_t X, int32_t Y) { return Cmp(X, Y) ? 1 : 0; };
}

constexpr auto Eq = [](int32_t X, int32_t Y) { return X == Y; };
constexpr auto Ne = [](int32_t X, int32_t Y) { return X != Y; };
constexpr auto Ge = [](int32_t X, int32_t Y) { return X >= Y; };
constexpr auto Gt = [](int32_t X, int32_t Y) { return X > Y; };
constexpr auto Le = [](int32_t X, int32_t Y) { return X <= Y; };
constexpr auto Lt = [](int32_t X, int32_t Y) { return X < Y; };

constexpr Lanes S = Lanes::Signed;
constexpr Lanes U = Lanes::Unsigned;

} // namespace

extern "C" {

//===----------------------------------------------------------------------===//
// Absolute value and negation
//===----------------------------------------------------------------------===//

int __nv_vabs2(int A) { return perLane<16, S>(A, 0, Abs); }
int __nv_vabs4(int A) { return perLane<8, S>(A, 0, Abs); }
int __nv_vabsss2(int A) { return perLane<16, S>(A, 0, saturated<16, S>(Abs)); }
int __nv_vabsss4(int A) { return perLane<8, S>(A, 0, saturated<8, S>(Abs)); }
int __nv_vneg2(int A) { return perLane<16, S>(A, 0, Neg); }
int __nv_vneg4(int A) { return perLane<8, S>(A, 0, Neg); }
int __nv_vnegss2(int A) { return perLane<16, S>(A, 0, saturated<16, S>(Neg)); }
int __nv_vnegss4(int A) { return perLane<8, S>(A, 0, saturated<8, S>(Neg)); }

//===----------------------------------------------------------------------===//
// Absolute differences and their sums
//===----------------------------------------------------------------------===//

int __nv_vabsdiffs2(int A, int B) { return perLane<16, S>(A, B, AbsDiff); }
int __nv_vabsdiffs4(int A, int B) { return perLane<8, S>(A, B, AbsDiff); }
int __nv_vabsdiffu2(int A, int B) { return perLane<16, U>(A, B, AbsDiff); }
int __nv_vabsdiffu4(int A, int B) { return perLane<8, U>(A, B, AbsDiff); }
int __nv_vsads2(int A, int B) { return sumLanes<16, S>(A, B, AbsDiff); }
int __nv_vsads4(int A, int B) { return sumLanes<8, S>(A, B, AbsDiff); }
int __nv_vsadu2(int A, int B) { return sumLanes<16, U>(A, B, AbsDiff); }
int __nv_vsadu4(int A, int B) { return sumLanes<8, U>(A, B, AbsDiff); }

//===----------------------------------------------------------------------===//
// Addition and subtraction: wrapping, signed- or unsigned-saturating
//===----------------------------------------------------------------------===//

int __nv_vadd2(int A, int B) { return perLane<16, U>(A, B, Add); }
int __nv_vadd4(int A, int B) { return perLane<8, U>(A, B, Add); }

int __nv_vaddss2(int A, int B) {
  return perLane<16, S>(A, B, saturated<16, S>(Add));
}

int __nv_vaddss4(int A, int B) {
  return perLane<8, S>(A, B, saturated<8, S>(Add));
}

int __nv_vaddus2(int A, int B) {
  return perLane<16, U>(A, B, saturated<16, U>(Add));
}

int __nv_vaddus4(int A, int B) {
  return perLane<8, U>(A, B, saturated<8, U>(Add));
}

int __nv_vsub2(int A, int B) { return perLane<16, U>(A, B, Sub); }
int __nv_vsub4(int A, int B) { return perLane<8, U>(A, B, Sub); }

int __nv_vsubss2(int A, int B) {
  return perLane<16, S>(A, B, saturated<16, S>(Sub));
}

int __nv_vsubss4(int A, int B) {
  return perLane<8, S>(A, B, saturated<8, S>(Sub));
}

int __nv_vsubus2(int A, int B) {
  return perLane<16, U>(A, B, saturated<16, U>(Sub));
}

int __nv_vsubus4(int A, int B) {
  return perLane<8, U>(A, B, saturated<8, U>(Sub));
}

//===----------------------------------------------------------------------===//
// Averages, minimum and maximum
//===----------------------------------------------------------------------===//

int __nv_vavgs2(int A, int B) { return perLane<16, S>(A, B, RoundedAverage); }
int __nv_vavgs4(int A, int B) { return perLane<8, S>(A, B, RoundedAverage); }
int __nv_vavgu2(int A, int B) { return perLane<16, U>(A, B, RoundedAverage); }
int __nv_vavgu4(int A, int B) { return perLane<8, U>(A, B, RoundedAverage); }
int __nv_vhaddu2(int A, int B) {
  return perLane<16, U>(A, B, TruncatedAverage);
}
int __nv_vhaddu4(int A, int B) { return perLane<8, U>(A, B, TruncatedAverage); }
int __nv_vmaxs2(int A, int B) { return perLane<16, S>(A, B, Max); }
int __nv_vmaxs4(int A, int B) { return perLane<8, S>(A, B, Max); }
int __nv_vmaxu2(int A, int B) { return perLane<16, U>(A, B, Max); }
int __nv_vmaxu4(int A, int B) { return perLane<8, U>(A, B, Max); }
int __nv_vmins2(int A, int B) { return perLane<16, S>(A, B, Min); }
int __nv_vmins4(int A, int B) { return perLane<8, S>(A, B, Min); }
int __nv_vminu2(int A, int B) { return perLane<16, U>(A, B, Min); }
int __nv_vminu4(int A, int B) { return perLane<8, U>(A, B, Min); }

//===----------------------------------------------------------------------===//
// Comparisons: all-ones lanes (vcmp*)
//===----------------------------------------------------------------------===//

int __nv_vcmpeq2(int A, int B) { return perLane<16, U>(A, B, mask(Eq)); }
int __nv_vcmpeq4(int A, int B) { return perLane<8, U>(A, B, mask(Eq)); }
int __nv_vcmpne2(int A, int B) { return perLane<16, U>(A, B, mask(Ne)); }
int __nv_vcmpne4(int A, int B) { return perLane<8, U>(A, B, mask(Ne)); }
int __nv_vcmpges2(int A, int B) { return perLane<16, S>(A, B, mask(Ge)); }
int __nv_vcmpges4(int A, int B) { return perLane<8, S>(A, B, mask(Ge)); }
int __nv_vcmpgeu2(int A, int B) { return perLane<16, U>(A, B, mask(Ge)); }
int __nv_vcmpgeu4(int A, int B) { return perLane<8, U>(A, B, mask(Ge)); }
int __nv_vcmpgts2(int A, int B) { return perLane<16, S>(A, B, mask(Gt)); }
int __nv_vcmpgts4(int A, int B) { return perLane<8, S>(A, B, mask(Gt)); }
int __nv_vcmpgtu2(int A, int B) { return perLane<16, U>(A, B, mask(Gt)); }
int __nv_vcmpgtu4(int A, int B) { return perLane<8, U>(A, B, mask(Gt)); }
int __nv_vcmples2(int A, int B) { return perLane<16, S>(A, B, mask(Le)); }
int __nv_vcmples4(int A, int B) { return perLane<8, S>(A, B, mask(Le)); }
int __nv_vcmpleu2(int A, int B) { return perLane<16, U>(A, B, mask(Le)); }
int __nv_vcmpleu4(int A, int B) { return perLane<8, U>(A, B, mask(Le)); }
int __nv_vcmplts2(int A, int B) { return perLane<16, S>(A, B, mask(Lt)); }
int __nv_vcmplts4(int A, int B) { return perLane<8, S>(A, B, mask(Lt)); }
int __nv_vcmpltu2(int A, int B) { return perLane<16, U>(A, B, mask(Lt)); }
int __nv_vcmpltu4(int A, int B) { return perLane<8, U>(A, B, mask(Lt)); }

//===----------------------------------------------------------------------===//
// Comparisons: 0/1 lanes (vset*)
//===----------------------------------------------------------------------===//

int __nv_vseteq2(int A, int B) { return perLane<16, U>(A, B, flag(Eq)); }
int __nv_vseteq4(int A, int B) { return perLane<8, U>(A, B, flag(Eq)); }
int __nv_vsetne2(int A, int B) { return perLane<16, U>(A, B, flag(Ne)); }
int __nv_vsetne4(int A, int B) { return perLane<8, U>(A, B, flag(Ne)); }
int __nv_vsetges2(int A, int B) { return perLane<16, S>(A, B, flag(Ge)); }
int __nv_vsetges4(int A, int B) { return perLane<8, S>(A, B, flag(Ge)); }
int __nv_vsetgeu2(int A, int B) { return perLane<16, U>(A, B, flag(Ge)); }
int __nv_vsetgeu4(int A, int B) { return perLane<8, U>(A, B, flag(Ge)); }
int __nv_vsetgts2(int A, int B) { return perLane<16, S>(A, B, flag(Gt)); }
int __nv_vsetgts4(int A, int B) { return perLane<8, S>(A, B, flag(Gt)); }
int __nv_vsetgtu2(int A, int B) { return perLane<16, U>(A, B, flag(Gt)); }
int __nv_vsetgtu4(int A, int B) { return perLane<8, U>(A, B, flag(Gt)); }
int __nv_vsetles2(int A, int B) { return perLane<16, S>(A, B, flag(Le)); }
int __nv_vsetles4(int A, int B) { return perLane<8, S>(A, B, flag(Le)); }
int __nv_vsetleu2(int A, int B) { return perLane<16, U>(A, B, flag(Le)); }
int __nv_vsetleu4(int A, int B) { return perLane<8, U>(A, B, flag(Le)); }
int __nv_vsetlts2(int A, int B) { return perLane<16, S>(A, B, flag(Lt)); }
int __nv_vsetlts4(int A, int B) { return perLane<8, S>(A, B, flag(Lt)); }
int __nv_vsetltu2(int A, int B) { return perLane<16, U>(A, B, flag(Lt)); }
int __nv_vsetltu4(int A, int B) { return perLane<8, U>(A, B, flag(Lt)); }

} // extern "C"
