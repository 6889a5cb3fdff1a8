#pragma once
// Field inversion by the binary GCD with 31-step batches on 64-bit approximations, host and
// device (PRESTAGE_HD), for the batch-affine MSM's per-round inversions (gpu/msm/affine_batch.hpp;
// msm::DeviceAffineInverse::Bingcd). The algorithm is T. Pornin's "Optimized Binary GCD for Modular
// Inversion" (IACR ePrint 2020/972, Algorithm 2 with k = 32), in a variable-time form:
//   a <- y, b <- p (odd), u <- 1, v <- 0; invariants a = u y, b = v y (mod p), b odd.
//   Per outer step: the low 31 bits and the top 33 bits (relative to max(len a, len b, 64)) of a
//   and b make 64-bit approximations; 31 binary-GCD steps on them (halve a when even, else
//   order a >= b by a swap and set a <- (a - b) / 2) accumulate the update factors (f0, g0, f1,
//   g1), |f| + |g| <= 2^31; then a <- (a f0 + b g0) / 2^31, b <- (a f1 + b g1) / 2^31 exactly
//   (negated, with their factors, when negative: the approximations may order a and b wrongly),
//   and u, v the same way mod p (the division by 2^31 by one Montgomery-style 31-bit reduction).
//   Stop when a == 0: then b = gcd = 1 and v = 1 / y.
// Why (the GPU): ff::inverse_binary (gpu/ff/inverse_binary_hd.hpp) does ~2 x 381 steps on 12
// words with data-dependent branches, so a warp's lanes diverge and each step is a full-width
// pass; here the 31 inner steps a batch work on two 64-bit words and the full-width passes (two
// linear combinations for a, b and two for u, v) happen ~25 times (2 x 381 / 31) for Fq.
// NOT constant time (its running time depends on the value inverted): fine for MSM bucket sums,
// which are public. Never loops forever: past kMaxOuter steps (not reached by the bound above; the
// test checks the step count) it falls back to ff::inverse_binary.
#include <cstddef>
#include <cstdint>

#include "gpu/common/hd.hpp"
#include "gpu/ff/fp.hpp"
#include "gpu/ff/fq2.hpp"
#include "gpu/ff/inverse_binary_hd.hpp"

namespace prestage::ff {

namespace bgcd {

PRESTAGE_HD_INLINE unsigned clz32(uint32_t x) {  // 32 for x == 0
#if PRESTAGE_DEVICE_CODE
  return static_cast<unsigned>(__clz(static_cast<int>(x)));
#else
  return x == 0 ? 32u : static_cast<unsigned>(__builtin_clz(x));
#endif
}

// Bit length of a (0 for zero). Static indices only (no local-memory arrays on the device).
template <std::size_t M>
PRESTAGE_HD_INLINE unsigned bit_length(const uint32_t (&a)[M]) {
  unsigned len = 0;
  PRESTAGE_UNROLL
  for (std::size_t i = 0; i < M; ++i)
    if (a[i] != 0) len = 32u * static_cast<unsigned>(i + 1) - clz32(a[i]);
  return len;
}

// Bits [s, s + 64) of a (zero above the top word), for s < 32 M. Word selection by comparison
// (unrolled selects) rather than a dynamic index.
template <std::size_t M>
PRESTAGE_HD_INLINE uint64_t bits64_at(const uint32_t (&a)[M], unsigned s) {
  const unsigned w = s / 32, r = s % 32;
  uint32_t w0 = 0, w1 = 0, w2 = 0;
  PRESTAGE_UNROLL
  for (std::size_t i = 0; i < M; ++i) {
    if (i == w) w0 = a[i];
    if (i == w + 1) w1 = a[i];
    if (i == w + 2) w2 = a[i];
  }
  const uint64_t lo = (uint64_t{w1} << 32) | w0;
  if (r == 0) return lo;
  return (lo >> r) | (uint64_t{w2} << (64 - r));
}

// r = |x f + y g| (M + 1 words) for x, y < 2^(32 M) and |f| + |g| <= 2^31; returns true when
// x f + y g < 0.
template <std::size_t M>
PRESTAGE_HD_INLINE bool lin_comb(const uint32_t (&x)[M], int64_t f, const uint32_t (&y)[M],
                                 int64_t g, uint32_t (&r)[M + 1]) {
  const bool fneg = f < 0, gneg = g < 0;
  const uint32_t fm = static_cast<uint32_t>(fneg ? -f : f);
  const uint32_t gm = static_cast<uint32_t>(gneg ? -g : g);
  if (fneg == gneg) {  // |x f| + |y g|, sign of f
    uint64_t cx = 0, cy = 0;
    uint32_t carry = 0;
    PRESTAGE_UNROLL
    for (std::size_t i = 0; i < M; ++i) {
      const uint64_t px = uint64_t{x[i]} * fm + cx;
      const uint64_t py = uint64_t{y[i]} * gm + cy;
      cx = px >> 32;
      cy = py >> 32;
      const uint64_t s = (px & 0xffffffffu) + (py & 0xffffffffu) + carry;
      r[i] = static_cast<uint32_t>(s);
      carry = static_cast<uint32_t>(s >> 32);
    }
    r[M] = static_cast<uint32_t>(cx + cy + carry);  // < 2^32: the sum is < 2^(32 M + 31)
    return fneg;
  }
  // |x f| - |y g|, then its sign flips the sign of f.
  uint64_t cx = 0, cy = 0;
  uint32_t borrow = 0;
  PRESTAGE_UNROLL
  for (std::size_t i = 0; i < M; ++i) {
    const uint64_t px = uint64_t{x[i]} * fm + cx;
    const uint64_t py = uint64_t{y[i]} * gm + cy;
    cx = px >> 32;
    cy = py >> 32;
    const uint64_t d = (px & 0xffffffffu) - (py & 0xffffffffu) - borrow;
    r[i] = static_cast<uint32_t>(d);
    borrow = static_cast<uint32_t>(d >> 63);
  }
  const uint64_t d = cx - cy - borrow;
  r[M] = static_cast<uint32_t>(d);
  if ((d >> 63) == 0) return fneg;  // |x f| >= |y g|
  // Negative: r <- 2^(32 (M + 1)) - r.
  uint32_t c = 1;
  PRESTAGE_UNROLL
  for (std::size_t i = 0; i <= M; ++i) {
    const uint64_t s = uint64_t{~r[i]} + c;
    r[i] = static_cast<uint32_t>(s);
    c = static_cast<uint32_t>(s >> 32);
  }
  return !fneg;
}

// out = r / 2^31 for r with 31 zero low bits and r < 2^(32 M + 31).
template <std::size_t M>
PRESTAGE_HD_INLINE void shr31(const uint32_t (&r)[M + 1], uint32_t (&out)[M]) {
  PRESTAGE_UNROLL
  for (std::size_t i = 0; i < M; ++i) out[i] = (r[i] >> 31) | (r[i + 1] << 1);
}

// out = (-1)^neg r / 2^31 mod p, for r < 2^31 p (M + 1 words), p odd < 2^(32 M - 1), pinv =
// -p^-1 mod 2^32: r + q p with q = r pinv mod 2^31 is divisible by 2^31 and below 2^32 p.
template <std::size_t M>
PRESTAGE_HD_INLINE void div31_mod(uint32_t (&r)[M + 1], bool neg, const uint32_t (&p)[M],
                                  uint32_t pinv, uint32_t (&out)[M]) {
  const uint32_t q = (r[0] * pinv) & 0x7fffffffu;
  uint32_t carry = 0;
  PRESTAGE_UNROLL
  for (std::size_t i = 0; i < M; ++i) {
    const uint64_t s = uint64_t{q} * p[i] + r[i] + carry;
    r[i] = static_cast<uint32_t>(s);
    carry = static_cast<uint32_t>(s >> 32);
  }
  r[M] += carry;  // (r + q p) < 2^32 p < 2^(32 M + 32): no carry out
  shr31<M>(r, out);
  // out < 2p: one conditional subtraction.
  if (binv::geq(out, p)) binv::sub(out, p);
  if (neg) {
    uint32_t acc = 0;
    PRESTAGE_UNROLL
    for (std::size_t i = 0; i < M; ++i) acc |= out[i];
    if (acc != 0) {
      uint32_t t[M];
      PRESTAGE_UNROLL
      for (std::size_t i = 0; i < M; ++i) t[i] = p[i];
      binv::sub(t, out);
      PRESTAGE_UNROLL
      for (std::size_t i = 0; i < M; ++i) out[i] = t[i];
    }
  }
}

template <std::size_t M>
PRESTAGE_HD_INLINE bool is_zero(const uint32_t (&a)[M]) {
  uint32_t acc = 0;
  PRESTAGE_UNROLL
  for (std::size_t i = 0; i < M; ++i) acc |= a[i];
  return acc == 0;
}

// Outer steps before the fallback: the bound is ceil((2 len(p) - 1) / 31) (25 for Fq, 17 for Fr);
// the cap leaves twice that and more.
constexpr unsigned kMaxOuter = 64;

// y^-1 mod p for 0 < y < p (raw 32-bit words, no Montgomery form), into v. Returns the outer
// steps taken, or 0 when the cap was hit (v is then not the inverse).
template <std::size_t M>
PRESTAGE_HD_INLINE unsigned inverse_words(const uint32_t (&y)[M], const uint32_t (&p)[M],
                                          uint32_t pinv, uint32_t (&v)[M]) {
  uint32_t a[M], b[M], u[M];
  PRESTAGE_UNROLL
  for (std::size_t i = 0; i < M; ++i) {
    a[i] = y[i];
    b[i] = p[i];
    u[i] = i == 0 ? 1u : 0u;
    v[i] = 0;
  }
  for (unsigned step = 1; step <= kMaxOuter; ++step) {
    // Approximations: exact when both fit 64 bits, else low 31 and top 33 bits.
    const unsigned la = bit_length(a), lb = bit_length(b);
    const unsigned n = la > lb ? (la > 64 ? la : 64) : (lb > 64 ? lb : 64);
    uint64_t A, B;
    if (n == 64) {
      A = (uint64_t{a[1]} << 32) | a[0];
      B = (uint64_t{b[1]} << 32) | b[0];
    } else {
      const uint64_t top = 0x1ffffffffull;  // 33 bits
      A = (a[0] & 0x7fffffffu) | ((bits64_at(a, n - 33) & top) << 31);
      B = (b[0] & 0x7fffffffu) | ((bits64_at(b, n - 33) & top) << 31);
    }
    int64_t f0 = 1, g0 = 0, f1 = 0, g1 = 1;
    for (int i = 0; i < 31; ++i) {
      if (A & 1) {
        if (A < B) {
          const uint64_t tA = A;
          A = B;
          B = tA;
          const int64_t tf = f0, tg = g0;
          f0 = f1;
          g0 = g1;
          f1 = tf;
          g1 = tg;
        }
        A -= B;
        f0 -= f1;
        g0 -= g1;
      }
      A >>= 1;
      f1 += f1;
      g1 += g1;
    }
    // (a, b) <- ((a f0 + b g0) / 2^31, (a f1 + b g1) / 2^31), made nonnegative.
    uint32_t r[M + 1];
    const bool na = lin_comb(a, f0, b, g0, r);
    uint32_t a2[M];
    shr31<M>(r, a2);
    const bool nb = lin_comb(a, f1, b, g1, r);
    shr31<M>(r, b);
    PRESTAGE_UNROLL
    for (std::size_t i = 0; i < M; ++i) a[i] = a2[i];
    if (na) {
      f0 = -f0;
      g0 = -g0;
    }
    if (nb) {
      f1 = -f1;
      g1 = -g1;
    }
    // (u, v) <- ((u f0 + v g0) / 2^31, (u f1 + v g1) / 2^31) mod p.
    const bool nu = lin_comb(u, f0, v, g0, r);
    uint32_t u2[M];
    div31_mod<M>(r, nu, p, pinv, u2);
    const bool nv = lin_comb(u, f1, v, g1, r);
    div31_mod<M>(r, nv, p, pinv, v);
    PRESTAGE_UNROLL
    for (std::size_t i = 0; i < M; ++i) u[i] = u2[i];
    if (is_zero(a)) return step;  // b = gcd(y, p) = 1, v = 1 / y
  }
  return 0;
}

}  // namespace bgcd

// 1 / x in Montgomery form (x.inverse() for every x; zero maps to zero), by bgcd::inverse_words;
// `steps` (optional) receives its outer step count (tests). Variable time (see above).
template <class Config>
PRESTAGE_HD Fp<Config> inverse_bingcd(const Fp<Config>& x, unsigned* steps = nullptr) {
  using F = Fp<Config>;
  constexpr std::size_t M = 2 * F::N;  // 32-bit words
  if (steps != nullptr) *steps = 0;
  if (x.is_zero()) return F::zero();
  // The raw limbs are a = w R; the algorithm gives a^-1 = w^-1 R^-1; one Montgomery product by
  // R^3 mod p gives w^-1 R, the Montgomery form of 1 / w.
  constexpr typename F::Limbs P = F::modulus;
  constexpr typename F::Limbs R3 = detail::pow2_mod(F::modulus, 3 * 64 * F::N);
  constexpr uint32_t pinv = binv::neg_inv32(static_cast<uint32_t>(F::modulus[0]));
  uint32_t p[M], y[M], v[M];
  PRESTAGE_UNROLL
  for (std::size_t i = 0; i < F::N; ++i) {
    p[2 * i] = static_cast<uint32_t>(P[i]);
    p[2 * i + 1] = static_cast<uint32_t>(P[i] >> 32);
    y[2 * i] = static_cast<uint32_t>(x.limb[i]);
    y[2 * i + 1] = static_cast<uint32_t>(x.limb[i] >> 32);
  }
  const unsigned s = bgcd::inverse_words(y, p, pinv, v);
  if (steps != nullptr) *steps = s;
  if (s == 0) return inverse_binary(x);  // not reached (kMaxOuter); see the header comment
  F r{};
  PRESTAGE_UNROLL
  for (std::size_t i = 0; i < F::N; ++i)
    r.limb[i] = uint64_t{v[2 * i]} | (uint64_t{v[2 * i + 1]} << 32);
  return r * F::from_raw(R3);
}

// Fq2: 1 / (c0 + c1 u) = (c0 - c1 u) / (c0^2 + c1^2), one Fq inversion; zero maps to zero.
PRESTAGE_HD_INLINE Fq2 inverse_bingcd(const Fq2& a) {
  const Fq t = inverse_bingcd(a.norm());
  return {a.c0 * t, -(a.c1 * t)};
}

}  // namespace prestage::ff
