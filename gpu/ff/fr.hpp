#pragma once
// Fr: the BLS12-381 scalar field, r = 0x73eda753...ffffffff00000001 (255 bits), 4 x 64-bit limbs,
// Montgomery form a*R mod r with R = 2^256. 32 B per element on the host and on the device.
#include "gpu/ff/fp.hpp"

namespace prestage::ff {

struct FrConfig {
  static constexpr std::size_t N = 4;
  static constexpr std::array<uint64_t, 4> modulus = {0xffffffff00000001ull, 0x53bda402fffe5bfeull,
                                                      0x3339d80809a1d805ull, 0x73eda753299d7d48ull};
};

using Fr = Fp<FrConfig>;
static_assert(sizeof(Fr) == 32);

}  // namespace prestage::ff
