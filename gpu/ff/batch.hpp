#pragma once
// Batch inversion (Montgomery's trick), host: n field inversions for one inversion and 3(n-1)
// multiplications. Works for any field type here (Fr, Fq, Fq2, Fq6, Fq12).
#include <span>
#include <vector>

namespace prestage::ff {

// Replaces each element of v by its inverse in place; zeros stay zero (as F::inverse does).
template <class F>
void batch_inverse(std::span<F> v) {
  std::vector<F> prefix(v.size());  // prefix[i] = product of the nonzero elements before i
  F acc = F::one();
  for (std::size_t i = 0; i < v.size(); ++i) {
    prefix[i] = acc;
    if (!v[i].is_zero()) acc *= v[i];
  }
  F inv = acc.inverse();  // inverse of the product of all nonzero elements
  for (std::size_t i = v.size(); i-- > 0;) {
    if (v[i].is_zero()) continue;
    const F vi = v[i];
    v[i] = inv * prefix[i];
    inv *= vi;  // now the inverse of the product before i
  }
}

}  // namespace prestage::ff
