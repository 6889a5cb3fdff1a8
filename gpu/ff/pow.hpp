#pragma once
// Exponentiation shared by every field of the tower (Fp, Fq2, Fq12).
#include <cstddef>
#include <cstdint>

#include "gpu/common/hd.hpp"

namespace prestage::ff {

// base^e for any field type T with T::one(), sqr() and operator*; e is given as n little-endian
// 64-bit limbs. Left-to-right square and multiply; not constant time (exponents here are public).
template <class T>
PRESTAGE_HD constexpr T pow_by_limbs(const T& base, const uint64_t* e, std::size_t n) {
  T r = T::one();
  bool started = false;
  for (std::size_t i = n; i-- > 0;) {
    for (int bit = 63; bit >= 0; --bit) {
      if (started) r = r.sqr();
      if ((e[i] >> bit) & 1) {
        r = started ? r * base : base;
        started = true;
      }
    }
  }
  return r;
}

}  // namespace prestage::ff
