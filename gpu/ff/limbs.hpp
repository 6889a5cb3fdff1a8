#pragma once
// Multi-precision limb primitives for the prime fields (64-bit limbs, little-endian: limb[0] is
// the least significant). Written once for host (g++, unsigned __int128 products) and device
// (nvcc, __umul64hi); loops have compile-time bounds so they unroll and limbs stay in registers.
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "gpu/common/hd.hpp"

// Full unrolling of constant-bound limb loops (nvcc: registers instead of local memory).
#if defined(__CUDACC__)
#define PRESTAGE_UNROLL _Pragma("unroll")
#elif defined(__clang__)
#define PRESTAGE_UNROLL _Pragma("unroll")
#else
#define PRESTAGE_UNROLL _Pragma("GCC unroll 16")
#endif

namespace prestage::ff::detail {

// a + b + carry_in; carry (0 or 1) in and out.
PRESTAGE_HD_INLINE constexpr uint64_t adc(uint64_t a, uint64_t b, uint64_t& carry) {
  uint64_t s = a + b;
  uint64_t c1 = s < a;
  uint64_t s2 = s + carry;
  uint64_t c2 = s2 < s;
  carry = c1 | c2;
  return s2;
}

// a - b - borrow_in; borrow (0 or 1) in and out.
PRESTAGE_HD_INLINE constexpr uint64_t sbb(uint64_t a, uint64_t b, uint64_t& borrow) {
  uint64_t d = a - b;
  uint64_t b1 = a < b;
  uint64_t d2 = d - borrow;
  uint64_t b2 = d < borrow;
  borrow = b1 | b2;
  return d2;
}

// Low word of a + b*c + carry computed from 32-bit halves: the constant-evaluation path of the
// device pass (nvcc's __umul64hi is not constexpr). Never used at run time.
PRESTAGE_HD_INLINE constexpr uint64_t mac_portable(uint64_t a, uint64_t b, uint64_t c,
                                                   uint64_t& carry) {
  const uint64_t bl = b & 0xFFFFFFFFu, bh = b >> 32, cl = c & 0xFFFFFFFFu, ch = c >> 32;
  const uint64_t ll = bl * cl, lh = bl * ch, hl = bh * cl, hh = bh * ch;
  const uint64_t mid = (ll >> 32) + (lh & 0xFFFFFFFFu) + (hl & 0xFFFFFFFFu);
  uint64_t lo = (ll & 0xFFFFFFFFu) | (mid << 32);
  uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
  lo += a;
  hi += lo < a;
  lo += carry;
  hi += lo < carry;
  carry = hi;
  return lo;
}

// Low word of a + b*c + carry; the high word goes to carry. Never overflows 128 bits.
PRESTAGE_HD_INLINE constexpr uint64_t mac(uint64_t a, uint64_t b, uint64_t c, uint64_t& carry) {
#if PRESTAGE_DEVICE_CODE
  if (std::is_constant_evaluated()) return mac_portable(a, b, c, carry);
  uint64_t lo = b * c;
  uint64_t hi = __umul64hi(b, c);
  lo += a;
  hi += lo < a;
  lo += carry;
  hi += lo < carry;
  carry = hi;
  return lo;
#else
  unsigned __int128 t = static_cast<unsigned __int128>(b) * c + a + carry;
  carry = static_cast<uint64_t>(t >> 64);
  return static_cast<uint64_t>(t);
#endif
}

// ---- constexpr helpers used to derive field constants from the modulus at compile time ----

template <std::size_t N>
constexpr bool geq(const std::array<uint64_t, N>& a, const std::array<uint64_t, N>& b) {
  for (std::size_t i = N; i-- > 0;) {
    if (a[i] != b[i]) return a[i] > b[i];
  }
  return true;
}

template <std::size_t N>
constexpr std::array<uint64_t, N> sub_arr(const std::array<uint64_t, N>& a,
                                          const std::array<uint64_t, N>& b) {
  std::array<uint64_t, N> d{};
  uint64_t borrow = 0;
  for (std::size_t i = 0; i < N; ++i) d[i] = sbb(a[i], b[i], borrow);
  return d;
}

template <std::size_t N>
constexpr std::array<uint64_t, N> add_small(const std::array<uint64_t, N>& a, uint64_t s) {
  std::array<uint64_t, N> d{};
  uint64_t carry = 0;
  for (std::size_t i = 0; i < N; ++i) d[i] = adc(a[i], i == 0 ? s : 0, carry);
  return d;
}

template <std::size_t N>
constexpr std::array<uint64_t, N> sub_small(const std::array<uint64_t, N>& a, uint64_t s) {
  std::array<uint64_t, N> d{};
  uint64_t borrow = 0;
  for (std::size_t i = 0; i < N; ++i) d[i] = sbb(a[i], i == 0 ? s : 0, borrow);
  return d;
}

template <std::size_t N>
constexpr std::array<uint64_t, N> shr(const std::array<uint64_t, N>& a, unsigned k) {
  std::array<uint64_t, N> d{};
  for (std::size_t i = 0; i < N; ++i) {
    d[i] = a[i] >> k;
    if (k != 0 && i + 1 < N) d[i] |= a[i + 1] << (64 - k);
  }
  return d;
}

// 2^e mod m by e modular doublings of 1 (m < 2^(64N-1), so a doubling never overflows N limbs).
template <std::size_t N>
constexpr std::array<uint64_t, N> pow2_mod(const std::array<uint64_t, N>& m, unsigned e) {
  std::array<uint64_t, N> a{};
  a[0] = 1;
  for (unsigned k = 0; k < e; ++k) {
    uint64_t carry = 0;
    for (std::size_t i = 0; i < N; ++i) a[i] = adc(a[i], a[i], carry);
    if (geq(a, m)) a = sub_arr(a, m);
  }
  return a;
}

// Small-divisor division (quotient) of a little-endian limb integer (constexpr host helper, for
// exponents).
template <std::size_t N>
constexpr std::array<uint64_t, N> div_small(const std::array<uint64_t, N>& a, uint64_t d) {
  std::array<uint64_t, N> q{};
  unsigned __int128 rem = 0;
  for (std::size_t i = N; i-- > 0;) {
    const unsigned __int128 cur = (rem << 64) | a[i];
    q[i] = static_cast<uint64_t>(cur / d);
    rem = cur % d;
  }
  return q;
}

// -m^-1 mod 2^64 by Newton iteration (m odd): each step doubles the correct low bits.
constexpr uint64_t neg_inv64(uint64_t m0) {
  uint64_t x = 1;
  for (int i = 0; i < 7; ++i) x *= 2 - m0 * x;
  return ~x + 1;
}

template <std::size_t N>
constexpr unsigned bit_length(const std::array<uint64_t, N>& a) {
  for (std::size_t i = N; i-- > 0;) {
    if (a[i] != 0) {
      unsigned b = 0;
      uint64_t v = a[i];
      while (v != 0) {
        ++b;
        v >>= 1;
      }
      return static_cast<unsigned>(64 * i) + b;
    }
  }
  return 0;
}

}  // namespace prestage::ff::detail
