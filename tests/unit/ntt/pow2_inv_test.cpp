// System: ntt::pass::mul_pow2_inv (gpu/ntt/ntt_pass.hpp), x * 2^-s mod r by a shift and one
// 32-bit Montgomery reduction step, the inverse NTT's 1/n. Expectation: equal to Fr's product
// x * (2^s)^-1 for every s in 1..32, on edge values (0, 1, 2, r - 1, r - 2, (r -+ 1)/2, values
// with all-ones low words, 2^192 and r - 2^192) and 2^14 random x (seed printed); and
// applying it for s then multiplying by 2^s gives x back. Tolerance: none (exact).
#include <boost/test/unit_test.hpp>

#include <random>
#include <vector>

#include "gpu/ff/fr.hpp"
#include "gpu/ntt/ntt_pass.hpp"
#include "tests/support/test_seed.hpp"

namespace {
using prestage::ff::Fr;
namespace np = prestage::ntt::pass;

std::vector<Fr> inputs(std::mt19937_64& rng) {
  const Fr two = Fr::one() + Fr::one();
  const Fr half_down = (-Fr::one()) * two.inverse();
  std::vector<Fr> v = {Fr::zero(),
                       Fr::one(),
                       two,
                       -Fr::one(),
                       -two,
                       half_down,
                       half_down + Fr::one(),
                       Fr::from_raw({0xffffffffffffffffull, 0, 0, 0}),
                       Fr::from_raw({0xffffffffffffffffull, 0xffffffffffffffffull, 0, 0}),
                       Fr::from_raw({0, 0, 0, 1}),
                       -Fr::from_raw({0, 0, 0, 1})};
  for (int i = 0; i < (1 << 14); ++i) v.push_back(Fr::random(rng));
  return v;
}
}  // namespace

BOOST_AUTO_TEST_CASE(mul_pow2_inv_matches_product_by_inverse_power) {
  const uint64_t seed = prestage::test::test_seed();
  BOOST_TEST_MESSAGE("seed " << seed);
  std::mt19937_64 rng(seed);
  const std::vector<Fr> xs = inputs(rng);
  for (unsigned s = 1; s <= 32; ++s) {
    const Fr pow = Fr::from_u64(uint64_t{1} << s);
    const Fr inv = pow.inverse();
    std::size_t bad = 0, bad_back = 0;
    for (const Fr& x : xs) {
      const Fr y = np::mul_pow2_inv(x, s);
      bad += !(y == x * inv);
      bad_back += !(y * pow == x);
    }
    BOOST_TEST(bad == 0u, "s = " << s << ": " << bad << " of " << xs.size() << " differ");
    BOOST_TEST(bad_back == 0u, "s = " << s << ": " << bad_back << " do not round-trip");
  }
}
