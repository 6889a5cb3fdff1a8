#pragma once
// Shared by the host tests of the field inversions (tests/unit/ff/inverse_binary_hd_test.cpp,
// tests/unit/ff/inverse_bingcd_hd_test.cpp): the Fq2 check (and test_seed,
// tests/support/test_seed.hpp).
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <random>

#include "gpu/ff/fq2.hpp"
#include "tests/support/test_seed.hpp"

namespace prestage::test {

// System: an Fq2 inversion `invert`. Expectation: zero maps to zero; for `count` random x != 0
// (the first purely real, the second purely imaginary) invert(x) equals Fermat's x.inverse() and
// x * invert(x) == 1. Tolerance: none (exact).
template <class Invert>
void check_fq2_inverse(Invert invert, int count, std::mt19937_64& rng) {
  namespace ff = prestage::ff;
  BOOST_TEST((invert(ff::Fq2::zero()) == ff::Fq2::zero()));
  for (int i = 0; i < count; ++i) {
    ff::Fq2 x = ff::Fq2::random(rng);
    if (i == 0) x.c1 = ff::Fq::zero();  // purely real
    if (i == 1) x.c0 = ff::Fq::zero();  // purely imaginary
    if (x == ff::Fq2::zero()) continue;
    const ff::Fq2 inv = invert(x);
    BOOST_TEST((inv == x.inverse()));
    BOOST_TEST((inv * x == ff::Fq2::one()));
  }
}

}  // namespace prestage::test
