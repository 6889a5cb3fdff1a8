#pragma once
// Host-only field inversion by a binary extended Euclidean algorithm (Kaliski's almost-Montgomery
// inverse, see inverse_vartime), for the batch-affine MSM's one inversion per batch. NOT constant
// time: its running time depends on the value inverted. That is fine where it is used: MSM bucket
// sums of a prover are not secret (they are products of public points' coordinate differences).
// Fermat's a^(p-2) costs ~570 Montgomery products for Fq. Measured (2-vCPU EPYC dev VM, g++ 12
// -O3, chains of 2000 inversions): the earlier Stein variant (Hankerson-Menezes-Vanstone Alg.
// 2.22, cofactors halved mod p per bit) 10.0 us vs 15.8 us by Fermat (2026-11-30); Kaliski's
// 5.8-7.9 us vs 10.0-14.2 us for that Stein variant in interleaved runs (2026-12-01, load ~2).
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "gpu/ff/fp.hpp"

namespace prestage::ff {

namespace detail {

template <std::size_t N>
inline bool is_one_w(const uint64_t* a) {
  uint64_t acc = a[0] ^ 1;
  for (std::size_t i = 1; i < N; ++i) acc |= a[i];
  return acc == 0;
}

template <std::size_t N>
inline bool geq_w(const uint64_t* a, const uint64_t* b) {
  for (std::size_t i = N; i-- > 0;)
    if (a[i] != b[i]) return a[i] > b[i];
  return true;
}

// a -= b (a >= b).
template <std::size_t N>
inline void sub_w(uint64_t* a, const uint64_t* b) {
  unsigned __int128 borrow = 0;
  for (std::size_t i = 0; i < N; ++i) {
    const unsigned __int128 d = static_cast<unsigned __int128>(a[i]) - b[i] - borrow;
    a[i] = static_cast<uint64_t>(d);
    borrow = (d >> 64) & 1;
  }
}

// a >>= k for 0 < k < 64.
template <std::size_t N>
inline void shr_w(uint64_t* a, unsigned k) {
  for (std::size_t i = 0; i + 1 < N; ++i) a[i] = (a[i] >> k) | (a[i + 1] << (64 - k));
  a[N - 1] >>= k;
}

// x <- x / 2 mod p for x < p (p odd, p < 2^(64N - 1), so x + p fits N limbs).
template <std::size_t N>
inline void half_mod(uint64_t* x, const uint64_t* p) {
  if (x[0] & 1) {
    unsigned __int128 carry = 0;
    for (std::size_t i = 0; i < N; ++i) {
      const unsigned __int128 s = static_cast<unsigned __int128>(x[i]) + p[i] + carry;
      x[i] = static_cast<uint64_t>(s);
      carry = s >> 64;
    }
  }
  shr_w<N>(x, 1);
}

// x <- x - y mod p for x, y < p.
template <std::size_t N>
inline void sub_mod_w(uint64_t* x, const uint64_t* y, const uint64_t* p) {
  if (geq_w<N>(x, y)) {
    sub_w<N>(x, y);
  } else {
    uint64_t t[N];
    for (std::size_t i = 0; i < N; ++i) t[i] = p[i];
    sub_w<N>(t, y);  // p - y
    unsigned __int128 carry = 0;
    for (std::size_t i = 0; i < N; ++i) {
      const unsigned __int128 s = static_cast<unsigned __int128>(x[i]) + t[i] + carry;
      x[i] = static_cast<uint64_t>(s);
      carry = s >> 64;
    }
  }
}

}  // namespace detail

namespace detail {
// a += b (no carry out: callers keep a + b < 2^(64N)).
template <std::size_t N>
inline void add_w(uint64_t* a, const uint64_t* b) {
  unsigned __int128 carry = 0;
  for (std::size_t i = 0; i < N; ++i) {
    const unsigned __int128 t = static_cast<unsigned __int128>(a[i]) + b[i] + carry;
    a[i] = static_cast<uint64_t>(t);
    carry = t >> 64;
  }
}
// a <<= k for 0 < k < 64 (no bits shifted out: callers keep a 2^k < 2^(64N)).
template <std::size_t N>
inline void shl_w(uint64_t* a, unsigned k) {
  for (std::size_t i = N; i-- > 1;) a[i] = (a[i] << k) | (a[i - 1] >> (64 - k));
  a[0] <<= k;
}
template <std::size_t N>
inline bool is_zero_w(const uint64_t* a) {
  uint64_t acc = 0;
  for (std::size_t i = 0; i < N; ++i) acc |= a[i];
  return acc == 0;
}
// C[k] = R^3 2^-k mod p (raw limbs) for k <= 128 N: Kaliski's 2^k correction folded into the
// final Montgomery product. Built once (k halvings mod p).
template <class F>
const std::vector<typename F::Limbs>& kaliski_table() {
  static const std::vector<typename F::Limbs> t = [] {
    constexpr std::size_t N = F::N;
    std::vector<typename F::Limbs> c(128 * N + 1);
    uint64_t x[N];
    const auto R3 = pow2_mod(F::modulus, 3 * 64 * N);
    for (std::size_t i = 0; i < N; ++i) x[i] = R3[i];
    for (std::size_t k = 0; k < c.size(); ++k) {
      for (std::size_t i = 0; i < N; ++i) c[k][i] = x[i];
      half_mod<N>(x, F::modulus.data());
    }
    return c;
  }();
  return t;
}
}  // namespace detail

// 1 / x in Montgomery form (zero maps to zero, as Fp::inverse does); same value as
// x.inverse(), variable time (see above). Host only. The fallback of inverse_vartime.
// Kaliski's almost-Montgomery inverse (B. Kaliski, "The Montgomery inverse and its
// applications", IEEE Trans. Computers 44(8), 1995, phase 1): u = p, v = a, r = 0, s = 1; per
// step one of u /= 2, s *= 2 | v /= 2, r *= 2 | u = (u - v) / 2, r += s, s *= 2 |
// v = (v - u) / 2, s += r, r *= 2, k += 1; at v = 0, p - r = a^-1 2^k mod p with n <= k <= 2n
// (n = bits of p), and r, s < 2p throughout. Runs of zero bits are shifted out at once. Unlike
// the Stein variant it replaced, the cofactors are never halved mod p (a conditional add of p
// per bit); the 2^-k comes from a table in the final product (measurement at the top).
template <class Config>
Fp<Config> inverse_kaliski(const Fp<Config>& x) {
  using F = Fp<Config>;
  constexpr std::size_t N = F::N;
  if (x.is_zero()) return F::zero();
  constexpr auto P = F::modulus;
  static_assert(P[N - 1] < (uint64_t{1} << 63), "r, s < 2p must fit N limbs");
  uint64_t u[N], v[N], r[N] = {0}, s[N] = {1};
  for (std::size_t i = 0; i < N; ++i) {
    u[i] = P[i];
    v[i] = x.limb[i];
  }
  unsigned k = 0;
  while (!detail::is_zero_w<N>(v)) {
    if ((u[0] & 1) == 0) {
      const unsigned tz = static_cast<unsigned>(__builtin_ctzll(u[0] | (uint64_t{1} << 63)));
      detail::shr_w<N>(u, tz);
      detail::shl_w<N>(s, tz);
      k += tz;
    } else if ((v[0] & 1) == 0) {
      const unsigned tz = static_cast<unsigned>(__builtin_ctzll(v[0] | (uint64_t{1} << 63)));
      detail::shr_w<N>(v, tz);
      detail::shl_w<N>(r, tz);
      k += tz;
    } else if (!detail::geq_w<N>(v, u)) {  // u > v
      detail::sub_w<N>(u, v);
      detail::shr_w<N>(u, 1);
      detail::add_w<N>(r, s);
      detail::shl_w<N>(s, 1);
      ++k;
    } else {
      detail::sub_w<N>(v, u);
      detail::shr_w<N>(v, 1);
      detail::add_w<N>(s, r);
      detail::shl_w<N>(r, 1);
      ++k;
    }
  }
  if (detail::geq_w<N>(r, P.data())) detail::sub_w<N>(r, P.data());
  typename F::Limbs out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = P[i];
  detail::sub_w<N>(out.data(), r);  // p - r = a^-1 2^k (a = the raw limbs = value * R)
  // (value^-1 R^-1 2^k) (R^3 2^-k) / R = value^-1 R: the Montgomery form of 1 / value.
  return F::from_raw(out) * F::from_raw(detail::kaliski_table<F>()[k]);
}

namespace detail {
// r = a f + b g as an (N + 1)-limb two's complement integer; a, b < 2^(64N - 1), |f|, |g| <= 2^32.
template <std::size_t N>
inline void lin_comb_w(uint64_t* r, const uint64_t* a, const uint64_t* b, int64_t f, int64_t g) {
  __int128 carry = 0;
  for (std::size_t i = 0; i < N; ++i) {
    const __int128 t = static_cast<__int128>(a[i]) * f + static_cast<__int128>(b[i]) * g + carry;
    r[i] = static_cast<uint64_t>(t);
    carry = t >> 64;  // arithmetic
  }
  r[N] = static_cast<uint64_t>(carry);
}
// Two's complement negation of an (N + 1)-limb integer.
template <std::size_t N>
inline void neg_w(uint64_t* r) {
  uint64_t c = 1;
  for (std::size_t i = 0; i <= N; ++i) {
    const uint64_t t = ~r[i] + c;
    c = (c != 0 && t == 0) ? 1 : 0;
    r[i] = t;
  }
}
// Bits [pos, pos + 33) of a (N limbs; bits past the top read as 0), pos + 33 <= 64 N.
template <std::size_t N>
inline uint64_t bits33_w(const uint64_t* a, unsigned pos) {
  const unsigned w = pos / 64, o = pos % 64;
  uint64_t v = a[w] >> o;
  if (o != 0 && w + 1 < N) v |= a[w + 1] << (64 - o);
  return v & ((uint64_t{1} << 33) - 1);
}
// x = (u f + v g) / 2^64 mod p (Montgomery division by one word), u, v < p; x in [0, p).
template <std::size_t N>
inline void lin_comb_mod(uint64_t* x, const uint64_t* u, const uint64_t* v, int64_t f, int64_t g,
                         const uint64_t* p, uint64_t pinv) {
  uint64_t t[N + 1];
  lin_comb_w<N>(t, u, v, f, g);    // |t| < 2^(64N - 1 + 32)
  const uint64_t k = t[0] * pinv;  // t + k p = 0 mod 2^64
  unsigned __int128 c = static_cast<unsigned __int128>(k) * p[0] + t[0];
  c >>= 64;
  for (std::size_t i = 1; i < N; ++i) {
    c += static_cast<unsigned __int128>(k) * p[i] + t[i];
    x[i - 1] = static_cast<uint64_t>(c);
    c >>= 64;
  }
  x[N - 1] = static_cast<uint64_t>(c) + t[N];  // (t + k p) / 2^64 mod 2^(64N), in (-p, 2p)
  if (x[N - 1] >> 63)
    add_w<N>(x, p);  // negative: + p (wraps to the value in [0, p))
  else if (geq_w<N>(x, p))
    sub_w<N>(x, p);
}
constexpr unsigned kBgcdSteps = 31;     // inner iterations per outer step
constexpr unsigned kBgcdMaxOuter = 48;  // outer steps before falling back to Kaliski's
// B[T] = 2^(33 T) R^3 mod p (raw limbs), T <= kBgcdMaxOuter: the scale left by T outer steps of
// inverse_vartime (2^-31 per step from the halvings, 2^64 from each Montgomery division,
// inverted), folded into the final Montgomery product.
template <class F>
const std::vector<typename F::Limbs>& bgcd_table() {
  static const std::vector<typename F::Limbs> t = [] {
    std::vector<typename F::Limbs> c(kBgcdMaxOuter + 1);
    for (unsigned T = 0; T <= kBgcdMaxOuter; ++T)
      c[T] = pow2_mod(F::modulus, 3 * 64 * static_cast<unsigned>(F::N) + (64 - kBgcdSteps) * T);
    return c;
  }();
  return t;
}
}  // namespace detail

// 1 / x in Montgomery form (zero maps to zero, as Fp::inverse does); same value as x.inverse()
// and inverse_kaliski, variable time (see the top). Host only.
// T. Pornin's optimized binary GCD ("Optimized Binary GCD for Modular Inversion", IACR ePrint
// 2020/972, Algorithm 2): the classic binary GCD (a = y, b = p; a odd: if a < b swap a, b; a -= b;
// then a /= 2), run 31 iterations at a time on 64-bit approximations of a and b (their low 31
// bits and top 33 bits), collecting the update matrix (f0 g0; f1 g1) with a 2^31 = f0 a + g0 b,
// b 2^31 = f1 a + g1 b; the matrix then updates the full a, b (exact, then / 2^31; a negative
// result, from an approximate comparison, is negated with its row) and the cofactors u, v
// (a = u y c, b = v y c mod p; Montgomery division by 2^64 per step). Ends at a = 0, b = 1:
// v y 2^(33 T) = 1. Per step: 31 cheap iterations plus four N x 32-bit linear combinations,
// instead of ~31 full-width subtract/shift/add steps.
template <class Config>
Fp<Config> inverse_vartime(const Fp<Config>& x) {
  using F = Fp<Config>;
  constexpr std::size_t N = F::N;
  if (x.is_zero()) return F::zero();
  constexpr auto P = F::modulus;
  static_assert(P[N - 1] < (uint64_t{1} << 63), "a f + b g must fit N + 1 signed limbs");
  uint64_t a[N], b[N], u[N] = {1}, v[N] = {0};
  for (std::size_t i = 0; i < N; ++i) {
    a[i] = x.limb[i];
    b[i] = P[i];
  }
  // Raw limbs x < p: inverting them gives x^-1 = value^-1 R^-1.
  unsigned T = 0;
  while (!detail::is_zero_w<N>(a)) {
    if (T == detail::kBgcdMaxOuter) return inverse_kaliski(x);  // not expected (bound ~25)
    // Bit length of max(a, b).
    std::size_t hi = N - 1;
    while (hi > 0 && (a[hi] | b[hi]) == 0) --hi;
    const unsigned len =
        64 * static_cast<unsigned>(hi) + 64 - static_cast<unsigned>(__builtin_clzll(a[hi] | b[hi]));
    uint64_t ab, bb;
    if (len <= 64) {
      ab = a[0];
      bb = b[0];
    } else {
      constexpr uint64_t lo = (uint64_t{1} << 31) - 1;
      ab = (a[0] & lo) | (detail::bits33_w<N>(a, len - 33) << 31);
      bb = (b[0] & lo) | (detail::bits33_w<N>(b, len - 33) << 31);
    }
    int64_t f0 = 1, g0 = 0, f1 = 0, g1 = 1;
    // Branch-free (masks): the branches of "a odd" and "a < b" are coin flips, and mispredicted
    // they cost more than the iteration's arithmetic.
    for (unsigned j = 0; j < detail::kBgcdSteps; ++j) {
      const uint64_t odd = -(ab & 1);
      const uint64_t sw = odd & -static_cast<uint64_t>(ab < bb);
      const uint64_t t = (ab ^ bb) & sw;
      ab ^= t;
      bb ^= t;
      const int64_t tf = (f0 ^ f1) & static_cast<int64_t>(sw);
      f0 ^= tf;
      f1 ^= tf;
      const int64_t tg = (g0 ^ g1) & static_cast<int64_t>(sw);
      g0 ^= tg;
      g1 ^= tg;
      ab -= bb & odd;
      f0 -= f1 & static_cast<int64_t>(odd);
      g0 -= g1 & static_cast<int64_t>(odd);
      ab >>= 1;
      f1 *= 2;
      g1 *= 2;
    }
    uint64_t na[N + 1], nb[N + 1];
    detail::lin_comb_w<N>(na, a, b, f0, g0);
    detail::lin_comb_w<N>(nb, a, b, f1, g1);
    if (na[N] >> 63) {
      detail::neg_w<N>(na);
      f0 = -f0;
      g0 = -g0;
    }
    if (nb[N] >> 63) {
      detail::neg_w<N>(nb);
      f1 = -f1;
      g1 = -g1;
    }
    for (std::size_t i = 0; i < N; ++i) {  // exact: the low 31 bits are zero
      a[i] = (na[i] >> detail::kBgcdSteps) | (na[i + 1] << (64 - detail::kBgcdSteps));
      b[i] = (nb[i] >> detail::kBgcdSteps) | (nb[i + 1] << (64 - detail::kBgcdSteps));
    }
    uint64_t nu[N], nv[N];
    detail::lin_comb_mod<N>(nu, u, v, f0, g0, P.data(), F::inv);
    detail::lin_comb_mod<N>(nv, u, v, f1, g1, P.data(), F::inv);
    for (std::size_t i = 0; i < N; ++i) {
      u[i] = nu[i];
      v[i] = nv[i];
    }
    ++T;
  }
  if (!detail::is_one_w<N>(b)) return inverse_kaliski(x);  // gcd != 1: cannot happen for p prime
  typename F::Limbs out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = v[i];
  // (x^-1 2^-(33 T)) (2^(33 T) R^3) / R = value^-1 R: the Montgomery form of 1 / value.
  return F::from_raw(out) * F::from_raw(detail::bgcd_table<F>()[T]);
}

}  // namespace prestage::ff
