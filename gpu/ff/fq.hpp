#pragma once
// Fq: the BLS12-381 base field, p = 0x1a0111ea...b9feffffffffaaab (381 bits, p = 3 mod 4),
// 6 x 64-bit limbs, Montgomery form a*R mod p with R = 2^384. 48 B per element.
#include "gpu/ff/fp.hpp"

namespace prestage::ff {

struct FqConfig {
  static constexpr std::size_t N = 6;
  static constexpr std::array<uint64_t, 6> modulus = {0xb9feffffffffaaabull, 0x1eabfffeb153ffffull,
                                                      0x6730d2a0f6b0f624ull, 0x64774b84f38512bfull,
                                                      0x4b1ba7b6434bacd7ull, 0x1a0111ea397fe69aull};
};

using Fq = Fp<FqConfig>;
static_assert(sizeof(Fq) == 48);

}  // namespace prestage::ff
