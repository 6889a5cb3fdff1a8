#pragma once
// Field inversion by the binary extended Euclidean algorithm on 32-bit words, host and device
// (PRESTAGE_HD), for the batch-affine MSM's per-round inversions (gpu/msm/affine_batch.hpp).
// Same algorithm as inverse_vartime in gpu/ff/inverse_binary.hpp (host only, 64-bit words:
// Hankerson, Menezes, Vanstone, "Guide to Elliptic Curve Cryptography", Alg. 2.22), with two
// changes for the GPU: words of 32 bits (the GPU's native integer width) and the halving of the
// cofactor by k bits at once, x <- (x + m p) / 2^k with m = -x p^-1 mod 2^k (one multiply-add
// pass over the words instead of k conditional add-and-shift passes).
// NOT constant time (its running time and its branches depend on the value inverted): fine for
// MSM bucket sums, which are public (products of public points' coordinate differences).
// Cost: ~2 x 381 shift/subtract steps on 12 words for Fq against Fermat's ~608 Montgomery
// products, each of which is ~600 multiply-adds.
#include <cstddef>
#include <cstdint>

#include "gpu/common/hd.hpp"
#include "gpu/ff/fp.hpp"
#include "gpu/ff/fq2.hpp"

namespace prestage::ff {

namespace binv {

PRESTAGE_HD_INLINE unsigned ctz32(uint32_t x) {  // x != 0
#if PRESTAGE_DEVICE_CODE
  return static_cast<unsigned>(__ffs(static_cast<int>(x)) - 1);
#else
  return static_cast<unsigned>(__builtin_ctz(x));
#endif
}

template <std::size_t M>
PRESTAGE_HD_INLINE bool is_one(const uint32_t (&a)[M]) {
  uint32_t acc = a[0] ^ 1u;
  PRESTAGE_UNROLL
  for (std::size_t i = 1; i < M; ++i) acc |= a[i];
  return acc == 0;
}

// a >= b.
template <std::size_t M>
PRESTAGE_HD_INLINE bool geq(const uint32_t (&a)[M], const uint32_t (&b)[M]) {
  // Borrow of a - b: a >= b exactly when no borrow comes out of the top word.
  uint32_t borrow = 0;
  PRESTAGE_UNROLL
  for (std::size_t i = 0; i < M; ++i) {
    const uint64_t d = uint64_t{a[i]} - b[i] - borrow;
    borrow = static_cast<uint32_t>(d >> 63);
  }
  return borrow == 0;
}

// a -= b; returns the borrow out of the top word.
template <std::size_t M>
PRESTAGE_HD_INLINE uint32_t sub(uint32_t (&a)[M], const uint32_t (&b)[M]) {
  uint32_t borrow = 0;
  PRESTAGE_UNROLL
  for (std::size_t i = 0; i < M; ++i) {
    const uint64_t d = uint64_t{a[i]} - b[i] - borrow;
    a[i] = static_cast<uint32_t>(d);
    borrow = static_cast<uint32_t>(d >> 63);
  }
  return borrow;
}

// a += b (mod 2^(32 M)).
template <std::size_t M>
PRESTAGE_HD_INLINE void add(uint32_t (&a)[M], const uint32_t (&b)[M]) {
  uint32_t carry = 0;
  PRESTAGE_UNROLL
  for (std::size_t i = 0; i < M; ++i) {
    const uint64_t s = uint64_t{a[i]} + b[i] + carry;
    a[i] = static_cast<uint32_t>(s);
    carry = static_cast<uint32_t>(s >> 32);
  }
}

// a >>= k, 0 < k < 32.
template <std::size_t M>
PRESTAGE_HD_INLINE void shr(uint32_t (&a)[M], unsigned k) {
  PRESTAGE_UNROLL
  for (std::size_t i = 0; i + 1 < M; ++i) a[i] = (a[i] >> k) | (a[i + 1] << (32 - k));
  a[M - 1] >>= k;
}

// x <- x / 2^k mod p for x < p, 0 < k < 32 (pinv = -p^-1 mod 2^32): x + m p with
// m = x pinv mod 2^k is divisible by 2^k and below 2^k p, so the quotient is < p.
template <std::size_t M>
PRESTAGE_HD_INLINE void div2k_mod(uint32_t (&x)[M], unsigned k, const uint32_t (&p)[M],
                                  uint32_t pinv) {
  const uint32_t m = (x[0] * pinv) & ((1u << k) - 1);
  uint32_t carry = 0;
  PRESTAGE_UNROLL
  for (std::size_t i = 0; i < M; ++i) {
    const uint64_t s = uint64_t{m} * p[i] + x[i] + carry;
    x[i] = static_cast<uint32_t>(s);
    carry = static_cast<uint32_t>(s >> 32);
  }
  // (x, carry) is a (32 M + 32)-bit value with k zero low bits; shift it right by k.
  PRESTAGE_UNROLL
  for (std::size_t i = 0; i + 1 < M; ++i) x[i] = (x[i] >> k) | (x[i + 1] << (32 - k));
  x[M - 1] = (x[M - 1] >> k) | (carry << (32 - k));
}

// x <- x - y mod p for x, y < p.
template <std::size_t M>
PRESTAGE_HD_INLINE void sub_mod(uint32_t (&x)[M], const uint32_t (&y)[M], const uint32_t (&p)[M]) {
  if (sub(x, y) != 0) add(x, p);  // wrapped: x - y + 2^(32 M) + p = x - y + p mod 2^(32 M)
}

// -p0^-1 mod 2^32 for odd p0 (Newton: each step doubles the correct low bits).
constexpr uint32_t neg_inv32(uint32_t p0) {
  uint32_t x = p0;  // correct to 3 bits (p0 p0 = 1 mod 8)
  for (int i = 0; i < 5; ++i) x *= 2u - p0 * x;
  return 0u - x;
}

}  // namespace binv

// 1 / x in Montgomery form by the binary extended Euclidean algorithm; zero maps to zero (as
// Fp::inverse). Equal to x.inverse() for every x; variable time (see above).
template <class Config>
PRESTAGE_HD Fp<Config> inverse_binary(const Fp<Config>& x) {
  using F = Fp<Config>;
  constexpr std::size_t M = 2 * F::N;  // 32-bit words
  if (x.is_zero()) return F::zero();
  // The raw limbs are a = v R; the algorithm gives a^-1 = v^-1 R^-1; one Montgomery product by
  // R^3 mod p gives v^-1 R, the Montgomery form of 1 / v.
  constexpr typename F::Limbs P = F::modulus;
  constexpr typename F::Limbs R3 = detail::pow2_mod(F::modulus, 3 * 64 * F::N);
  constexpr uint32_t pinv = binv::neg_inv32(static_cast<uint32_t>(F::modulus[0]));
  uint32_t p[M], u[M], v[M], x1[M], x2[M];
  PRESTAGE_UNROLL
  for (std::size_t i = 0; i < F::N; ++i) {
    p[2 * i] = static_cast<uint32_t>(P[i]);
    p[2 * i + 1] = static_cast<uint32_t>(P[i] >> 32);
    u[2 * i] = static_cast<uint32_t>(x.limb[i]);
    u[2 * i + 1] = static_cast<uint32_t>(x.limb[i] >> 32);
  }
  PRESTAGE_UNROLL
  for (std::size_t i = 0; i < M; ++i) {
    v[i] = p[i];
    x1[i] = i == 0 ? 1u : 0u;
    x2[i] = 0;
  }
  // Invariants: x1 a = u and x2 a = v (mod p); gcd(u, v) = 1; 0 < u, v; v odd after the first
  // pass (p is odd), u odd after its halving.
  while (!binv::is_one(u) && !binv::is_one(v)) {
    while ((u[0] & 1) == 0) {
      const unsigned k = binv::ctz32(u[0] | 0x80000000u);  // at most 31 bits a pass
      binv::shr(u, k);
      binv::div2k_mod(x1, k, p, pinv);
    }
    while ((v[0] & 1) == 0) {
      const unsigned k = binv::ctz32(v[0] | 0x80000000u);
      binv::shr(v, k);
      binv::div2k_mod(x2, k, p, pinv);
    }
    if (binv::geq(u, v)) {
      binv::sub(u, v);
      binv::sub_mod(x1, x2, p);
    } else {
      binv::sub(v, u);
      binv::sub_mod(x2, x1, p);
    }
  }
  const bool u_one = binv::is_one(u);
  F r{};
  PRESTAGE_UNROLL
  for (std::size_t i = 0; i < F::N; ++i) {
    const uint32_t lo = u_one ? x1[2 * i] : x2[2 * i];
    const uint32_t hi = u_one ? x1[2 * i + 1] : x2[2 * i + 1];
    r.limb[i] = uint64_t{lo} | (uint64_t{hi} << 32);
  }
  return r * F::from_raw(R3);
}

// Fq2: 1 / (c0 + c1 u) = (c0 - c1 u) / (c0^2 + c1^2), one Fq inversion; zero maps to zero.
PRESTAGE_HD_INLINE Fq2 inverse_binary(const Fq2& a) {
  const Fq t = inverse_binary(a.norm());
  return {a.c0 * t, -(a.c1 * t)};
}

}  // namespace prestage::ff
