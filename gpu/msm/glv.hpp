#pragma once
// GLV decomposition for BLS12-381 G1 (host): the endomorphism phi(x, y) = (beta x, y), beta a
// primitive cube root of unity in Fq, acts on G1 as multiplication by lambda = z^2 - 1, a
// primitive cube root of unity mod r (z = -0xd201000000010000 is the curve parameter). Because
// r = lambda^2 + lambda + 1 exactly, the "lattice" split of a scalar k < r is plain division:
// k = k1 + k2 * lambda with k1 = k mod lambda < 2^128 and k2 = floor(k / lambda) <= lambda + 1 =
// z^2 < 2^128, both non-negative. A 255-bit MSM then becomes a 128-bit MSM over twice the points
// {P_i, phi(P_i)}: half the Pippenger windows, so half the bucket reductions (Gallant, Lambert,
// Vanstone, CRYPTO 2001; the division form is the BLS12 special case of the lattice reduction).
// Scalars here are public (MSM inputs of a prover), so nothing is constant time.
#include <array>
#include <cstdint>

#include "gpu/ec/g1.hpp"

namespace prestage::msm::glv {

// lambda = z^2 - 1 = 0xac45a4010001a40200000000ffffffff (128 bits), low limb first.
inline constexpr std::array<uint64_t, 2> kLambda = {0x00000000ffffffffull, 0xac45a4010001a402ull};
// mu = floor(2^255 / lambda) (128 bits): the Barrett reciprocal used by split().
inline constexpr std::array<uint64_t, 2> kMu = {0xb1fb72917b67f718ull, 0xbe35f678f00fd56eull};

// k (canonical, 4 little-endian limbs, k < r) -> k1, k2 (2 limbs each) with k = k1 + k2 * lambda
// as integers, k1 < lambda, k2 <= lambda + 1.
inline void split(const std::array<uint64_t, 4>& k, std::array<uint64_t, 2>& k1,
                  std::array<uint64_t, 2>& k2) {
  using u128 = unsigned __int128;
  // q = floor(floor(k / 2^127) * mu / 2^128) is floor(k / lambda) minus 0, 1 or 2: both floors
  // and mu's truncation each lose less than 1 (k < 2^255, lambda > 2^127).
  const u128 a = (u128(k[3]) << 65) | (u128(k[2]) << 1) | (k[1] >> 63);  // k >> 127
  const uint64_t a0 = uint64_t(a), a1 = uint64_t(a >> 64);
  // 256-bit product a * mu, keep words 2 and 3.
  const u128 p00 = u128(a0) * kMu[0], p01 = u128(a0) * kMu[1], p10 = u128(a1) * kMu[0],
             p11 = u128(a1) * kMu[1];
  const u128 mid = (p00 >> 64) + uint64_t(p01) + uint64_t(p10);
  const u128 hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
  uint64_t q0 = uint64_t(hi), q1 = uint64_t(hi >> 64);
  // rem = k - q * lambda (< 3 lambda < 2^130: three limbs suffice).
  const u128 m00 = u128(q0) * kLambda[0], m01 = u128(q0) * kLambda[1], m10 = u128(q1) * kLambda[0],
             m11 = u128(q1) * kLambda[1];
  const u128 mmid = (m00 >> 64) + uint64_t(m01) + uint64_t(m10);
  const u128 mhi = m11 + (m01 >> 64) + (m10 >> 64) + (mmid >> 64);
  const uint64_t ql[3] = {uint64_t(m00), uint64_t(mmid), uint64_t(mhi)};
  uint64_t r[3];
  u128 borrow = 0;
  for (int i = 0; i < 3; ++i) {
    const u128 d = u128(k[i]) - ql[i] - borrow;
    r[i] = uint64_t(d);
    borrow = (d >> 64) & 1;
  }
  // At most two corrections: while rem >= lambda, rem -= lambda and q += 1.
  for (;;) {
    const bool ge = r[2] != 0 || r[1] > kLambda[1] || (r[1] == kLambda[1] && r[0] >= kLambda[0]);
    if (!ge) break;
    const u128 d0 = u128(r[0]) - kLambda[0];
    const u128 d1 = u128(r[1]) - kLambda[1] - ((d0 >> 64) & 1);
    r[2] -= uint64_t((d1 >> 64) & 1);
    r[0] = uint64_t(d0);
    r[1] = uint64_t(d1);
    if (++q0 == 0) ++q1;
  }
  k1 = {r[0], r[1]};
  k2 = {q0, q1};
}

// beta with phi(P) = (beta x, y) = lambda * P on G1. endomorphism_beta() acts as -z^2 = lambda^2
// (mod r), so its square acts as lambda^4 = lambda.
inline const ff::Fq& beta() {
  static const ff::Fq b = ec::G1Config::endomorphism_beta().sqr();
  return b;
}

// phi(P) = lambda * P for an affine point (identity stays identity).
inline ec::G1Affine phi(const ec::G1Affine& p) {
  return p.infinity ? p : ec::G1Affine{p.x * beta(), p.y, false};
}

}  // namespace prestage::msm::glv
