#pragma once
// G1 of BLS12-381: E(Fq): y^2 = x^3 + 4, the subgroup of order r (Fr's modulus), cofactor
// 0x396c8c005555e1568c00aaab0000aaab. Affine points are 2 x 48 B + flag; Jacobian 3 x 48 B;
// XYZZ 4 x 48 B (all coordinates Montgomery form).
#include <optional>

#include "gpu/ec/curve.hpp"
#include "gpu/ff/fq.hpp"

namespace prestage::ec {

struct G1Config {
  using Field = ff::Fq;
  PRESTAGE_HD_INLINE static constexpr Field b() {
    constexpr Field four = Field::from_u64(4);
    return four;
  }
  // The standard generator (the IETF pairing-friendly-curves draft and the ZCash spec).
  PRESTAGE_HD static constexpr Affine<G1Config> generator() {
    constexpr Field x = Field::from_canonical({0xfb3af00adb22c6bbull, 0x6c55e83ff97a1aefull,
                                               0xa14e3a3f171bac58ull, 0xc3688c4f9774b905ull,
                                               0x2695638c4fa9ac0full, 0x17f1d3a73197d794ull});
    constexpr Field y = Field::from_canonical({0x0caa232946c5e7e1ull, 0xd03cc744a2888ae4ull,
                                               0x00db18cb2c04b3edull, 0xfcf5e095d5d00af6ull,
                                               0xa09e30ed741d8ae4ull, 0x08b3f481e3aaa0f1ull});
    return {x, y, false};
  }
  // Membership in the order-r subgroup for a point on the curve (host): phi(P) == [-x^2] P with
  // phi(x, y) = (beta x, y), beta a primitive cube root of unity, x = -0xd201000000010000 (Scott,
  // "A note on group membership tests for G1, G2 and GT on BLS pairing-friendly curves", ePrint
  // 2021/1130). Two 64-bit scalar multiplications instead of one 255-bit one; the tests compare it
  // with r * P == O.
  static bool in_subgroup(const Jacobian<G1Config>& p);
  // The cube root of unity beta for which phi acts on G1 as multiplication by -x^2.
  static const Field& endomorphism_beta();
};

inline const ff::Fq& G1Config::endomorphism_beta() {
  static const ff::Fq beta = [] {
    // Cube roots of unity: g^((p-1)/3) for the first small non-cube g; pick the one of the two
    // primitive roots whose endomorphism matches -x^2 on the generator.
    constexpr auto e = ff::detail::div_small(ff::detail::sub_small(ff::Fq::modulus, 1), 3);
    ff::Fq w = ff::Fq::one();
    for (uint64_t g = 2; w.is_one(); ++g) w = ff::Fq::from_u64(g).pow(e);
    const auto gen = Jacobian<G1Config>::generator();
    constexpr uint64_t x = 0xd201000000010000ull;
    const auto x2g = gen.mul_limbs(&x, 1).mul_limbs(&x, 1);  // x^2 G
    const Jacobian<G1Config> phi{gen.X * w, gen.Y, gen.Z};
    return phi == -x2g ? w : w.sqr();
  }();
  return beta;
}

inline bool G1Config::in_subgroup(const Jacobian<G1Config>& p) {
  if (p.is_identity()) return true;
  constexpr uint64_t x = 0xd201000000010000ull;
  const auto x2p = p.mul_limbs(&x, 1).mul_limbs(&x, 1);  // x^2 P ((-x)^2 = x^2)
  const Jacobian<G1Config> phi{p.X * endomorphism_beta(), p.Y, p.Z};
  return phi == -x2p;
}

using G1Affine = Affine<G1Config>;
using G1Jacobian = Jacobian<G1Config>;
using G1XYZZ = XYZZ<G1Config>;

}  // namespace prestage::ec
