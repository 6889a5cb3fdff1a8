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
// x.inverse(), variable time (see above). Host only.
// Kaliski's almost-Montgomery inverse (B. Kaliski, "The Montgomery inverse and its
// applications", IEEE Trans. Computers 44(8), 1995, phase 1): u = p, v = a, r = 0, s = 1; per
// step one of u /= 2, s *= 2 | v /= 2, r *= 2 | u = (u - v) / 2, r += s, s *= 2 |
// v = (v - u) / 2, s += r, r *= 2, k += 1; at v = 0, p - r = a^-1 2^k mod p with n <= k <= 2n
// (n = bits of p), and r, s < 2p throughout. Runs of zero bits are shifted out at once. Unlike
// the Stein variant it replaced, the cofactors are never halved mod p (a conditional add of p
// per bit); the 2^-k comes from a table in the final product (measurement at the top).
template <class Config>
Fp<Config> inverse_vartime(const Fp<Config>& x) {
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

}  // namespace prestage::ff
