#pragma once
// G1 of BLS12-381: E(Fq): y^2 = x^3 + 4, the subgroup of order r (Fr's modulus), cofactor
// 0x396c8c005555e1568c00aaab0000aaab. Affine points are 2 x 48 B + flag; Jacobian 3 x 48 B;
// XYZZ 4 x 48 B (all coordinates Montgomery form).
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
};

using G1Affine = Affine<G1Config>;
using G1Jacobian = Jacobian<G1Config>;
using G1XYZZ = XYZZ<G1Config>;

}  // namespace prestage::ec
