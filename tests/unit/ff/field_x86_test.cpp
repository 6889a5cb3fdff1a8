// System: the host field kernels added for speed: modular addition and subtraction with adc/sbb
// chains (gpu/ff/addsub_x86.hpp, used by Fp::operator+ and operator-), and the variable-time
// binary-Euclid inversion (gpu/ff/inverse_binary.hpp, used by the batch-affine MSM).
// Expectation: on raw limb values x, y < p (Montgomery form or not: addition is the same), the
// kernels and the operators give (x + y) mod p and (x - y) mod p computed with GMP, fully reduced,
// for Fr and Fq, on random values and edge values (0, 1, 2, p - 1, p - 2, (p +- 1) / 2, 2^64 - 1,
// 2^64, all-ones limbs below p and p minus them) in every pairing; 2x = x + x and -x = 0 - x.
// inverse_vartime(x) (Pornin's binary GCD) and inverse_kaliski(x) (its fallback) are the
// Montgomery form of v^-1 mod p (GMP's inverse of the value v that x represents) and equal
// Fermat's x.inverse(), for the same values; 0 maps to 0.
// Tolerance: none (exact integers).
#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>
#include <random>
#include <vector>

#include "gpu/ff/fq.hpp"
#include "gpu/ff/fr.hpp"
#include "gpu/ff/inverse_binary.hpp"
#include "tests/unit/ff/gmp_oracle.hpp"

using prestage::ff::Fq;
using prestage::ff::Fr;
using prestage::test::from_mpz;
using prestage::test::modulus_mpz;
using prestage::test::to_mpz;

namespace {

using Fields = boost::mpl::list<Fr, Fq>;

template <class F>
std::vector<mpz_class> operands(int random_count) {
  return prestage::test::edge_and_random_operands<F>(random_count, 20261201);
}

template <class F>
mpz_class raw(const F& f) {
  return to_mpz(std::array<uint64_t, F::N>(std::to_array(f.limb)));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(field_x86)

BOOST_AUTO_TEST_CASE_TEMPLATE(add_sub_equal_gmp, F, Fields) {
#if defined(PRESTAGE_FF_HOST_ADC)
  BOOST_TEST_MESSAGE("x86 adc/sbb kernels in use");
#else
  BOOST_TEST_MESSAGE("not an x86-64 GCC host build: portable add/sub checked instead");
#endif
  const mpz_class p = modulus_mpz<F>();
  const auto vals = operands<F>(200);
  std::size_t checked = 0;
  for (const auto& x : vals)
    for (const auto& y : vals) {
      const F a = F::from_raw(from_mpz<F::N>(x)), b = F::from_raw(from_mpz<F::N>(y));
      const mpz_class sum = (x + y) % p;
      mpz_class diff = (x - y) % p;
      if (diff < 0) diff += p;
      const mpz_class got_sum = raw(a + b), got_diff = raw(a - b);
      if (got_sum != sum || got_diff != diff) {
        BOOST_TEST(got_sum == sum, "a=" << x << " b=" << y);
        BOOST_TEST(got_diff == diff, "a=" << x << " b=" << y);
        return;
      }
#if defined(PRESTAGE_FF_HOST_ADC)
      std::array<uint64_t, F::N> r{};
      prestage::ff::detail::add_mod_adc<F::N>(r.data(), a.limb, b.limb, F::modulus);
      BOOST_REQUIRE(to_mpz(r) == sum);
      prestage::ff::detail::sub_mod_adc<F::N>(r.data(), a.limb, b.limb, F::modulus);
      BOOST_REQUIRE(to_mpz(r) == diff);
#endif
      ++checked;
    }
  BOOST_TEST(checked == vals.size() * vals.size());
  for (const auto& x : vals) {
    const F a = F::from_raw(from_mpz<F::N>(x));
    BOOST_REQUIRE(raw(a.dbl()) == (2 * x) % p);
    BOOST_REQUIRE(raw(F::zero() - a) == raw(-a));
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(inverse_vartime_equals_gmp, F, Fields) {
  const mpz_class p = modulus_mpz<F>();
  const mpz_class R = mpz_class(1) << (64 * F::N);
  BOOST_REQUIRE(prestage::ff::inverse_vartime(F::zero()).is_zero());
  BOOST_REQUIRE(prestage::ff::inverse_kaliski(F::zero()).is_zero());
  mpz_class rinv;  // R^-1 mod p
  mpz_invert(rinv.get_mpz_t(), R.get_mpz_t(), p.get_mpz_t());
  std::size_t checked = 0;
  for (const auto& x : operands<F>(2000)) {
    if (x == 0) continue;
    const F a = F::from_raw(from_mpz<F::N>(x));  // the element v = x R^-1
    const mpz_class v = (x * rinv) % p;
    mpz_class vinv;
    mpz_invert(vinv.get_mpz_t(), v.get_mpz_t(), p.get_mpz_t());
    const mpz_class expect = (vinv * R) % p;  // Montgomery form of 1 / v
    const F got = prestage::ff::inverse_vartime(a);
    const F kal = prestage::ff::inverse_kaliski(a);
    if (raw(got) != expect || got != a.inverse() || raw(kal) != expect) {
      BOOST_TEST(raw(got) == expect, "x=" << x);
      BOOST_TEST((got == a.inverse()), "x=" << x);
      BOOST_TEST(raw(kal) == expect, "kaliski x=" << x);
      return;
    }
    ++checked;
  }
  BOOST_TEST(checked > 2000u);
}

BOOST_AUTO_TEST_SUITE_END()
