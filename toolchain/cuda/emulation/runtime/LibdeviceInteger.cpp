//===- LibdeviceInteger.cpp - libdevice integer functions on the host -----===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The integer helpers of libdevice (`__nv_popc`, `__nv_mulhi`, `__nv_sad`,
/// ...), with the results the CUDA Math API documents for the matching
/// intrinsics (`__popc`, `__mulhi`, `__sad`, ...). Device integer arithmetic
/// wraps, so the functions work on unsigned values wherever the signed
/// operation could overflow, which would be undefined behaviour in C++.
///
//===----------------------------------------------------------------------===//

#include <cstdint>

namespace {

/// The two's complement value of \p U (the conversion is modular in clang and
/// defined so from C++20 on).
int asSigned(uint32_t U) { return static_cast<int>(U); }
long long asSigned(uint64_t U) { return static_cast<long long>(U); }

/// Reverses the bit order by swapping ever larger neighbouring groups.
uint32_t reverseBits(uint32_t X) {
  X = ((X >> 1) & 0x55555555u) | ((X & 0x55555555u) << 1);
  X = ((X >> 2) & 0x33333333u) | ((X & 0x33333333u) << 2);
  X = ((X >> 4) & 0x0f0f0f0fu) | ((X & 0x0f0f0f0fu) << 4);
  X = ((X >> 8) & 0x00ff00ffu) | ((X & 0x00ff00ffu) << 8);
  return (X >> 16) | (X << 16);
}

uint64_t reverseBits(uint64_t X) {
  return (static_cast<uint64_t>(reverseBits(static_cast<uint32_t>(X))) << 32) |
         reverseBits(static_cast<uint32_t>(X >> 32));
}

/// Sign-extends the low 24 bits of \p X, the operand of PTX `mul24.lo.s32`.
int64_t low24Signed(int X) {
  uint32_t Low = static_cast<uint32_t>(X) & 0xffffffu;
  return Low & 0x800000u ? static_cast<int64_t>(Low) - 0x1000000
                         : static_cast<int64_t>(Low);
}

} // namespace

extern "C" {

//===----------------------------------------------------------------------===//
// Absolute value, minimum and maximum
//===----------------------------------------------------------------------===//

// abs(INT_MIN) is INT_MIN on the device, as in two's complement arithmetic.
int __nv_abs(int A) {
  uint32_t U = static_cast<uint32_t>(A);
  return asSigned(A < 0 ? 0u - U : U);
}

long long __nv_llabs(long long A) {
  uint64_t U = static_cast<uint64_t>(A);
  return asSigned(A < 0 ? uint64_t(0) - U : U);
}

int __nv_max(int A, int B) { return A > B ? A : B; }
int __nv_min(int A, int B) { return A < B ? A : B; }
unsigned int __nv_umax(unsigned int A, unsigned int B) { return A > B ? A : B; }
unsigned int __nv_umin(unsigned int A, unsigned int B) { return A < B ? A : B; }
long long __nv_llmax(long long A, long long B) { return A > B ? A : B; }
long long __nv_llmin(long long A, long long B) { return A < B ? A : B; }

unsigned long long __nv_ullmax(unsigned long long A, unsigned long long B) {
  return A > B ? A : B;
}

unsigned long long __nv_ullmin(unsigned long long A, unsigned long long B) {
  return A < B ? A : B;
}

//===----------------------------------------------------------------------===//
// Bit manipulation
//===----------------------------------------------------------------------===//

int __nv_brev(int A) { return asSigned(reverseBits(static_cast<uint32_t>(A))); }

long long __nv_brevll(long long A) {
  return asSigned(reverseBits(static_cast<uint64_t>(A)));
}

// Byte N of the result is byte `(C >> 4N) & 7` of the 8-byte value {B, A},
// where A supplies bytes 0-3 and B bytes 4-7.
int __nv_byte_perm(int A, int B, int C) {
  uint64_t Input = (static_cast<uint64_t>(static_cast<uint32_t>(B)) << 32) |
                   static_cast<uint32_t>(A);
  uint32_t Selector = static_cast<uint32_t>(C);
  uint32_t R = 0;
  for (unsigned N = 0; N < 4; ++N) {
    unsigned Byte = (Selector >> (4 * N)) & 7;
    R |= static_cast<uint32_t>((Input >> (8 * Byte)) & 0xff) << (8 * N);
  }
  return asSigned(R);
}

// The number of leading zero bits: 32 (64) for zero.
// (__builtin_clz is undefined for zero.)
int __nv_clz(int A) { return A ? __builtin_clz(static_cast<uint32_t>(A)) : 32; }

int __nv_clzll(long long A) {
  return A ? __builtin_clzll(static_cast<uint64_t>(A)) : 64;
}

// The 1-based position of the least significant set bit, 0 for zero.
int __nv_ffs(int A) { return __builtin_ffs(A); }
int __nv_ffsll(long long A) { return __builtin_ffsll(A); }

int __nv_popc(unsigned int A) { return __builtin_popcount(A); }
int __nv_popcll(unsigned long long A) { return __builtin_popcountll(A); }

//===----------------------------------------------------------------------===//
// Averages, products and sums of absolute differences
//===----------------------------------------------------------------------===//

// (A + B) >> 1 and (A + B + 1) >> 1 without overflowing the intermediate sum.
// The shifts of negative values are arithmetic (clang's behaviour, defined
// from C++20 on), i.e. they round towards negative infinity like the device.
int __nv_hadd(int A, int B) {
  return static_cast<int>((static_cast<int64_t>(A) + B) >> 1);
}

int __nv_rhadd(int A, int B) {
  return static_cast<int>((static_cast<int64_t>(A) + B + 1) >> 1);
}

int __nv_uhadd(unsigned int A, unsigned int B) {
  return asSigned(static_cast<uint32_t>((static_cast<uint64_t>(A) + B) >> 1));
}

unsigned int __nv_urhadd(unsigned int A, unsigned int B) {
  return static_cast<uint32_t>((static_cast<uint64_t>(A) + B + 1) >> 1);
}

// The low 32 bits of the product of the (sign- or zero-extended) low 24 bits
// of each operand.
int __nv_mul24(int A, int B) {
  return asSigned(static_cast<uint32_t>(low24Signed(A) * low24Signed(B)));
}

unsigned int __nv_umul24(unsigned int A, unsigned int B) {
  return static_cast<uint32_t>(static_cast<uint64_t>(A & 0xffffffu) *
                               (B & 0xffffffu));
}

// The high half of the full product.
int __nv_mulhi(int A, int B) {
  return static_cast<int>((static_cast<int64_t>(A) * B) >> 32);
}

unsigned int __nv_umulhi(unsigned int A, unsigned int B) {
  return static_cast<uint32_t>((static_cast<uint64_t>(A) * B) >> 32);
}

long long __nv_mul64hi(long long A, long long B) {
  return static_cast<long long>((static_cast<__int128>(A) * B) >> 64);
}

unsigned long long __nv_umul64hi(unsigned long long A, unsigned long long B) {
  return static_cast<unsigned long long>(
      (static_cast<unsigned __int128>(A) * B) >> 64);
}

// |A - B| + C, computed modulo 2^32 (`__sad` returns an unsigned int).
int __nv_sad(int A, int B, int C) {
  int64_t Difference = static_cast<int64_t>(A) - B;
  uint32_t Absolute =
      static_cast<uint32_t>(Difference < 0 ? -Difference : Difference);
  return asSigned(Absolute + static_cast<uint32_t>(C));
}

unsigned int __nv_usad(unsigned int A, unsigned int B, unsigned int C) {
  return (A > B ? A - B : B - A) + C;
}

} // extern "C"
