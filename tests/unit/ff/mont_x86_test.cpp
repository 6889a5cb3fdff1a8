// System: the x86-64 mulx/adcx/adox Montgomery kernels (gpu/ff/mont_x86.hpp) that Fp::operator*
// uses on the host when the CPU has BMI2 and ADX.
// Expectation: for Montgomery limbs a, b < p, the kernel's output is the no-carry CIOS value
// t = (a*b + m*p) / 2^(64N) with m = -a*b*p^-1 mod 2^(64N), computed with GMP, minus p when
// t >= p (t < 2p checked); and Fp::operator* equals a*b*2^(-64N) mod p. Inputs: random values, edge
// values (0, 1, p-1, p-2, (p+1)/2, 2^64 - 1, 2^64, 2^(64N-1)-ish limb patterns below p) in every
// pairing. Tolerance: none (exact integers). On a CPU without BMI2/ADX the kernel is not called (it
// would fault) and the test says so; operator* is then the portable path, covered by unit_ff_field.
#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>
#include <random>
#include <vector>

#include "gpu/ff/fq.hpp"
#include "gpu/ff/fr.hpp"
#include "gpu/ff/mont_x86.hpp"
#include "tests/unit/ff/gmp_oracle.hpp"

using prestage::ff::Fq;
using prestage::ff::Fr;
using prestage::test::from_mpz;
using prestage::test::modulus_mpz;
using prestage::test::to_mpz;

namespace {

using Fields = boost::mpl::list<Fr, Fq>;

// Raw Montgomery limb values (integers < p) fed to the kernel directly.
template <class F>
std::vector<mpz_class> operands(int random_count) {
  return prestage::test::edge_and_random_operands<F>(random_count, 20261130);
}

#if PRESTAGE_FF_HOST_ADX
template <class F>
void kernel(uint64_t* r, const uint64_t* a, const uint64_t* b) {
  if constexpr (F::N == 4)
    prestage::ff::detail::mont_mul_adx_4(r, a, b, F::modulus.data(), F::inv);
  else
    prestage::ff::detail::mont_mul_adx_6(r, a, b, F::modulus.data(), F::inv);
}
#endif

}  // namespace

BOOST_AUTO_TEST_SUITE(mont_x86)

BOOST_AUTO_TEST_CASE_TEMPLATE(kernel_equals_cios, F, Fields) {
#if PRESTAGE_FF_HOST_ADX
  if (!prestage::ff::detail::cpu_has_mulx_adx) {
    BOOST_TEST_MESSAGE("CPU lacks BMI2/ADX: x86 kernel not exercised (portable path in use)");
    return;
  }
  const mpz_class p = modulus_mpz<F>();
  const mpz_class R = mpz_class(1) << (64 * F::N);
  mpz_class pinv;  // p^-1 mod R
  mpz_invert(pinv.get_mpz_t(), p.get_mpz_t(), R.get_mpz_t());
  const auto vals = operands<F>(150);
  int checked = 0;
  for (const auto& x : vals)
    for (const auto& y : vals) {
      const auto a = from_mpz<F::N>(x), b = from_mpz<F::N>(y);
      std::array<uint64_t, F::N> t{};
      kernel<F>(t.data(), a.data(), b.data());
      const mpz_class ab = x * y;
      const mpz_class m = ((R - ab % R) * pinv) % R;
      const mpz_class cios = (ab + m * p) / R;  // exact division; < 2p by the no-carry bound
      const mpz_class expect = cios >= p ? mpz_class(cios - p) : cios;
      const mpz_class got = to_mpz(t);
      if (got != expect || cios >= 2 * p) {
        BOOST_TEST(got == expect, "a=" << x << " b=" << y);
        BOOST_TEST(cios < 2 * p);
        return;
      }
      ++checked;
    }
  BOOST_TEST(checked == static_cast<int>(vals.size() * vals.size()));
#else
  BOOST_TEST_MESSAGE("not an x86-64 GCC/Clang host build: no x86 kernel to test");
#endif
}

BOOST_AUTO_TEST_CASE_TEMPLATE(product_equals_gmp, F, Fields) {
  const mpz_class p = modulus_mpz<F>();
  const mpz_class R = mpz_class(1) << (64 * F::N);
  mpz_class rinv;
  mpz_invert(rinv.get_mpz_t(), R.get_mpz_t(), p.get_mpz_t());
  const auto vals = operands<F>(150);
  int checked = 0;
  for (const auto& x : vals)
    for (const auto& y : vals) {
      const F a = F::from_raw(from_mpz<F::N>(x)), b = F::from_raw(from_mpz<F::N>(y));
      const mpz_class got = to_mpz(std::array<uint64_t, F::N>(std::to_array((a * b).limb)));
      const mpz_class expect = (x * y * rinv) % p;
      if (got != expect) {
        BOOST_TEST(got == expect, "a=" << x << " b=" << y);
        return;
      }
      ++checked;
    }
  BOOST_TEST(checked == static_cast<int>(vals.size() * vals.size()));
}

BOOST_AUTO_TEST_SUITE_END()
