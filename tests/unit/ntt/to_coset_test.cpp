// System: ntt::to_coset (inverse by decimation in frequency to bit-reversed order, one table of
// shift^i / n, forward by decimation in time), the per-polynomial step of the circom reduction.
// Expectation: for every size 2^0 .. 2^14 (below, at and above the in-cache block of 2^12, odd
// and even numbers of outer stages), 1, 2 and 3 threads, and two shifts (snarkjs's circom shift
// and an arbitrary one), the result equals coset_forward(inverse(a), shift) element for element;
// for n = 8 it also equals the direct sum sum_i c_i (shift omega^j)^i with c = inverse(a).
// Tolerance: exact (field equality).
#include <boost/test/unit_test.hpp>
#include <random>
#include <vector>

#include "gpu/ntt/host_ntt.hpp"

using namespace prestage;
using ntt::Fr;

namespace {
std::vector<Fr> random_vec(std::size_t n, std::mt19937_64& g) {
  std::vector<Fr> v(n);
  for (auto& x : v) x = Fr::random(g);
  return v;
}
}  // namespace

BOOST_AUTO_TEST_CASE(to_coset_equals_inverse_then_coset_forward) {
  std::mt19937_64 g(42);
  for (unsigned log_n = 0; log_n <= 14; ++log_n) {
    const ntt::Domain d(log_n, 2);
    for (const Fr& shift : {d.circom_coset_shift(), Fr::random(g)}) {
      const std::vector<Fr> a = random_vec(d.size(), g);
      std::vector<Fr> want = a;
      ntt::inverse(d, want, 1);
      ntt::coset_forward(d, want, shift, 1);
      for (unsigned threads : {1u, 2u, 3u}) {
        const ntt::CosetShift cs(d, shift, threads);
        std::vector<Fr> got = a;
        ntt::to_coset(d, cs, got, threads);
        bool same = true;
        for (std::size_t i = 0; i < got.size(); ++i) same = same && got[i] == want[i];
        BOOST_TEST(same, "n = 2^" << log_n << ", " << threads << " threads");
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(to_coset_matches_the_definition_at_n8) {
  std::mt19937_64 g(7);
  const ntt::Domain d(3, 1);
  const Fr shift = d.circom_coset_shift();
  const std::vector<Fr> a = random_vec(8, g);
  std::vector<Fr> c = a;
  ntt::inverse(d, c, 1);
  std::vector<Fr> got = a;
  ntt::to_coset(d, ntt::CosetShift(d, shift, 1), got, 1);
  for (std::size_t j = 0; j < 8; ++j) {
    const Fr x = shift * d.omega().pow(j);
    Fr acc = Fr::zero(), xi = Fr::one();
    for (std::size_t i = 0; i < 8; ++i, xi = xi * x) acc = acc + c[i] * xi;
    BOOST_TEST((got[j] == acc), "j = " << j);
  }
}

BOOST_AUTO_TEST_CASE(to_coset_rejects_a_table_of_another_domain) {
  const ntt::Domain d4(4, 1), d5(5, 1);
  const ntt::CosetShift cs(d4, d4.circom_coset_shift(), 1);
  std::vector<Fr> a(d5.size(), Fr::one());
  BOOST_CHECK_THROW(ntt::to_coset(d5, cs, a, 1), std::invalid_argument);
}
