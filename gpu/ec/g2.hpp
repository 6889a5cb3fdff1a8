#pragma once
// G2 of BLS12-381: the sextic (M-type) twist E'(Fq2): y^2 = x^3 + 4(u + 1), subgroup of order r.
// Affine points are 2 x 96 B + flag; Jacobian 3 x 96 B; XYZZ 4 x 96 B (Fq2 = c0, c1 Montgomery).
#include "gpu/ec/curve.hpp"
#include "gpu/ff/fq2.hpp"
#include "gpu/ff/fq6.hpp"

namespace prestage::ec {

struct G2Config {
  using Field = ff::Fq2;
  PRESTAGE_HD_INLINE static constexpr Field b() {
    constexpr ff::Fq four = ff::Fq::from_u64(4);
    return {four, four};
  }
  // The standard generator (the IETF pairing-friendly-curves draft and the ZCash spec).
  PRESTAGE_HD static constexpr Affine<G2Config> generator() {
    constexpr ff::Fq x0 = ff::Fq::from_canonical({0xd48056c8c121bdb8ull, 0x0bac0326a805bbefull,
                                                  0xb4510b647ae3d177ull, 0xc6e47ad4fa403b02ull,
                                                  0x260805272dc51051ull, 0x024aa2b2f08f0a91ull});
    constexpr ff::Fq x1 = ff::Fq::from_canonical({0xe5ac7d055d042b7eull, 0x334cf11213945d57ull,
                                                  0xb5da61bbdc7f5049ull, 0x596bd0d09920b61aull,
                                                  0x7dacd3a088274f65ull, 0x13e02b6052719f60ull});
    constexpr ff::Fq y0 = ff::Fq::from_canonical({0xe193548608b82801ull, 0x923ac9cc3baca289ull,
                                                  0x6d429a695160d12cull, 0xadfd9baa8cbdd3a7ull,
                                                  0x8cc9cdc6da2e351aull, 0x0ce5d527727d6e11ull});
    constexpr ff::Fq y1 = ff::Fq::from_canonical({0xaaa9075ff05f79beull, 0x3f370d275cec1da1ull,
                                                  0x267492ab572e99abull, 0xcb3e287e85a763afull,
                                                  0x32acd2b02bc28b99ull, 0x0606c4a02ea734ccull});
    return {{x0, x1}, {y0, y1}, false};
  }
  // The untwist-Frobenius-twist endomorphism psi(x, y) = (x^p / gamma_2, y^p / gamma_3), with
  // gamma_k = xi^(k (p-1) / 6): the p-power Frobenius of E(Fq12) carried over to the twist
  // through (x, y) -> (x / w^2, y / w^3). On G2 it acts as multiplication by p = x mod r.
  static Jacobian<G2Config> psi(const Jacobian<G2Config>& q);
  // Membership in the order-r subgroup for a point on the twist (host): psi(Q) == [x] Q
  // (Scott, ePrint 2021/1130), one 64-bit scalar multiplication; the tests compare it with
  // r * Q == O.
  static bool in_subgroup(const Jacobian<G2Config>& q);
};

inline Jacobian<G2Config> G2Config::psi(const Jacobian<G2Config>& q) {
  // Jacobian (X, Y, Z): x = X/Z^2, y = Y/Z^3; the Frobenius is a field automorphism, so it maps
  // coordinates one by one, and the constants scale x and y.
  static const std::array<ff::Fq2, 2> c = [] {
    const auto& g = ff::detail::frobenius_coeffs();
    return std::array<ff::Fq2, 2>{g[2].inverse(), g[3].inverse()};
  }();
  return {q.X.conjugate() * c[0], q.Y.conjugate() * c[1], q.Z.conjugate()};
}

inline bool G2Config::in_subgroup(const Jacobian<G2Config>& q) {
  if (q.is_identity()) return true;
  constexpr uint64_t x = 0xd201000000010000ull;
  return psi(q) == -q.mul_limbs(&x, 1);  // [x] Q with x < 0
}

using G2Affine = Affine<G2Config>;
using G2Jacobian = Jacobian<G2Config>;
using G2XYZZ = XYZZ<G2Config>;

}  // namespace prestage::ec
