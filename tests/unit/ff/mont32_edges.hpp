#pragma once
// Edge values for the field-product tests (host and GPU): raw Montgomery limbs and field values.
#include <vector>

#include "gpu/ff/fp.hpp"

namespace prestage::ff::test {

template <class F>
std::vector<F> edge_values() {
  typename F::Limbs one{};
  one[0] = 1;
  return {F::zero(),
          F::one(),                                        // raw R mod p
          F::from_raw(one),                                // raw 1 (the value R^-1)
          F::from_raw(detail::sub_small(F::modulus, 1)),   // raw p - 1, the largest input
          F::from_raw(F::R2),                              // raw R^2 mod p
          -F::one(),                                       // p - 1 as a value
          -F::one() - F::one(),                            // p - 2 as a value
          F::one() + F::one(),                             // 2
          F::from_raw(detail::sub_small(F::modulus, 2))};  // raw p - 2
}

}  // namespace prestage::ff::test
