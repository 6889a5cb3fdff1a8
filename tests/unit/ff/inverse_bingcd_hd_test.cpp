// System: the host-and-device batched binary-GCD inversion (gpu/ff/inverse_bingcd_hd.hpp, Pornin's
// algorithm with 31-step batches), run on the host (the device runs the same source: gpu_msm_test
// checks it there through every batch-affine MSM with msm::DeviceAffineInverse::Bingcd).
// Expectation: equal to Fermat's inverse (Fp::inverse) limb for limb and x * inverse == 1 for
// x != 0; zero maps to zero; the outer step count never exceeds the bound ceil((2 len(p) - 1) /
// 31) (25 for Fq, 17 for Fr), so the fallback is never taken. Tolerance: none (exact). Inputs:
// fresh random elements per run (seed printed; PRESTAGE_SEED replays), the edge values 1, -1,
// 2, raw limbs 2^k and p - 2^k for every k (the longest runs of halvings, a and b of very
// different lengths), raw values near p and small raw values (exact 64-bit approximations from
// the start); Fq, Fr and Fq2.
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "gpu/ff/fq.hpp"
#include "gpu/ff/fq2.hpp"
#include "gpu/ff/fr.hpp"
#include "gpu/ff/inverse_bingcd_hd.hpp"
#include "tests/support/fq2_inverse_check.hpp"

namespace {

namespace ff = prestage::ff;

using prestage::test::test_seed;

template <class F>
std::vector<F> edge_values(std::mt19937_64& rng) {
  std::vector<F> v = {F::one(), -F::one(), F::one().dbl()};
  for (unsigned k = 0; k < F::num_bits - 1; ++k) {
    typename F::Limbs l{};
    l[k / 64] = uint64_t{1} << (k % 64);
    const F a = F::from_raw(l);  // raw 2^k < p
    v.push_back(a);
    v.push_back(-a);  // raw p - 2^k
  }
  for (uint64_t s = 1; s < 40; ++s) {  // raw values 1..39 and p - 1..39, and 64-bit raw values
    typename F::Limbs l{};
    l[0] = s;
    v.push_back(F::from_raw(l));
    v.push_back(-F::from_raw(l));
    l[0] = rng();
    v.push_back(F::from_raw(l));
    l[1] = rng() >> 1;  // ~127-bit raw values
    v.push_back(F::from_raw(l));
  }
  return v;
}

template <class F>
void check_field(std::mt19937_64& rng, int random_count) {
  unsigned steps = 99;
  BOOST_TEST((ff::inverse_bingcd(F::zero(), &steps) == F::zero()));
  BOOST_TEST(steps == 0u);
  const unsigned bound = (2 * F::num_bits - 1 + 30) / 31;
  std::vector<F> xs = edge_values<F>(rng);
  for (int i = 0; i < random_count; ++i) xs.push_back(F::random(rng));
  unsigned max_steps = 0, mismatches = 0;
  for (const F& x : xs) {
    if (x.is_zero()) continue;
    const F inv = ff::inverse_bingcd(x, &steps);
    if (!(inv == x.inverse()) || !(inv * x == F::one())) ++mismatches;
    BOOST_TEST(steps >= 1u);
    BOOST_TEST(steps <= bound);
    max_steps = std::max(max_steps, steps);
  }
  BOOST_TEST(mismatches == 0u);
  BOOST_TEST_MESSAGE(F::num_bits << "-bit field: " << xs.size() << " values, outer steps at most "
                                 << max_steps << " (bound " << bound << ")");
}

}  // namespace

BOOST_AUTO_TEST_CASE(fq_and_fr_match_fermat) {
  const uint64_t s = test_seed();
  BOOST_TEST_MESSAGE("seed " << s);
  std::mt19937_64 rng(s);
  check_field<ff::Fq>(rng, 3000);
  check_field<ff::Fr>(rng, 3000);
}

BOOST_AUTO_TEST_CASE(fq2_matches_fermat) {
  const uint64_t s = prestage::test::test_seed();
  BOOST_TEST_MESSAGE("seed " << s);
  std::mt19937_64 rng(s);
  prestage::test::check_fq2_inverse([](const ff::Fq2& x) { return ff::inverse_bingcd(x); }, 300,
                                    rng);
}
