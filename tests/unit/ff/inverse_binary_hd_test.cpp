// System: the host-and-device binary extended-Euclid inversion (gpu/ff/inverse_binary_hd.hpp),
// run on the host (the device runs the same source; gpu_msm_test checks it there through every
// batch-affine MSM). Expectation: equal to Fermat's inverse (Fp::inverse) limb for limb, and
// x * inverse_binary(x) == 1 for x != 0; zero maps to zero. Tolerance: none (exact). Inputs:
// fresh random elements per run (seed printed; PRESTAGE_SEED replays), and the edge values 1,
// -1 (p - 1), 2, 2^k R^-1 for every k < 384 (raw limbs a single bit: the longest halving runs,
// u reaching a word of zeros) and p - 2^k; Fq, Fr and Fq2.
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "gpu/ff/fq.hpp"
#include "gpu/ff/fq2.hpp"
#include "gpu/ff/fr.hpp"
#include "gpu/ff/inverse_binary_hd.hpp"
#include "tests/support/fq2_inverse_check.hpp"

namespace {

namespace ff = prestage::ff;

using prestage::test::test_seed;

// Edge values of F: 1, -1, 2, and the elements whose raw limbs are 2^k or p - 2^k.
template <class F>
std::vector<F> edge_values() {
  std::vector<F> v = {F::one(), -F::one(), F::one().dbl()};
  for (unsigned k = 0; k < F::num_bits - 1; ++k) {
    typename F::Limbs l{};
    l[k / 64] = uint64_t{1} << (k % 64);
    const F a = F::from_raw(l);  // 2^k < p: a valid raw Montgomery value
    v.push_back(a);
    v.push_back(-a);
  }
  return v;
}

template <class F>
void check_field(std::mt19937_64& rng, int random_count) {
  BOOST_TEST((ff::inverse_binary(F::zero()) == F::zero()));
  std::vector<F> xs = edge_values<F>();
  for (int i = 0; i < random_count; ++i) xs.push_back(F::random(rng));
  for (const F& x : xs) {
    if (x.is_zero()) continue;
    const F inv = ff::inverse_binary(x);
    BOOST_TEST((inv == x.inverse()));
    BOOST_TEST((inv * x == F::one()));
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(fq_and_fr_match_fermat) {
  const uint64_t s = test_seed();
  BOOST_TEST_MESSAGE("seed " << s);
  std::mt19937_64 rng(s);
  check_field<ff::Fq>(rng, 300);
  check_field<ff::Fr>(rng, 300);
}

BOOST_AUTO_TEST_CASE(fq2_matches_fermat) {
  const uint64_t s = prestage::test::test_seed();
  BOOST_TEST_MESSAGE("seed " << s);
  std::mt19937_64 rng(s);
  prestage::test::check_fq2_inverse([](const ff::Fq2& x) { return ff::inverse_binary(x); }, 200,
                                    rng);
}
