//===- BFloat16Conversions.cpp - Conversions to bfloat16 on the host ------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The conversions to `bfloat` that the host's code generator calls for an
/// `fptrunc` (cuda_bf16.h's `cvt.rn.bf16.f32`, read as IR, becomes one in
/// emulated device code). They belong to compiler-rt's builtins library,
/// which Debian's clang packages do not ship, so the emulation runtime
/// defines them: rounding to nearest even, NaN kept quiet, as PTX does.
///
//===----------------------------------------------------------------------===//

#include <cmath>
#include <cstdint>
#include <cstring>

namespace {

std::uint16_t bfloat16BitsOf(float Value) {
  std::uint32_t Bits;
  std::memcpy(&Bits, &Value, sizeof Bits);
  if ((Bits & 0x7fffffffu) > 0x7f800000u) // NaN: keep the sign, make quiet.
    return static_cast<std::uint16_t>((Bits >> 16) | 0x0040u);
  // Ties go to the even neighbour: add just under half an ulp of bfloat16,
  // plus the bit that makes an odd one round up.
  Bits += 0x7fffu + ((Bits >> 16) & 1u);
  return static_cast<std::uint16_t>(Bits >> 16);
}

__bf16 bfloat16FromBits(std::uint16_t Bits) {
  __bf16 Result;
  std::memcpy(&Result, &Bits, sizeof Result);
  return Result;
}

} // namespace

extern "C" __bf16 __truncsfbf2(float Value) {
  return bfloat16FromBits(bfloat16BitsOf(Value));
}

/// Through float without double rounding: the double rounded to float
/// towards zero, with the lowest bit set if anything was lost (rounding to
/// odd), keeps what the rounding to 8 bits of precision needs.
extern "C" __bf16 __truncdfbf2(double Value) {
  float Narrow = static_cast<float>(Value);
  if (std::isfinite(Value) && static_cast<double>(Narrow) != Value) {
    if (std::fabs(static_cast<double>(Narrow)) > std::fabs(Value))
      Narrow = std::nextafter(Narrow, 0.0f);
    std::uint32_t Bits;
    std::memcpy(&Bits, &Narrow, sizeof Bits);
    Bits |= 1u;
    std::memcpy(&Narrow, &Bits, sizeof Bits);
  }
  return __truncsfbf2(Narrow);
}
