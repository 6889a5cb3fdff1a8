// Host NTT (gpu/ntt): roots of unity and transforms against ffjavascript's printed values, and
// the transforms against O(n^2) / Horner evaluation, round trips and polynomial products.
// Field arithmetic is exact, so every tolerance is equality.
#include <boost/test/unit_test.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "gpu/ntt/domain.hpp"
#include "gpu/ntt/host_ntt.hpp"

using prestage::ff::Fr;
namespace ntt = prestage::ntt;

namespace {

const char* kFixture = "tests/unit/ntt/ffjavascript_fr_roots.json";

nlohmann::json load_fixture() {
  std::ifstream in(kFixture);
  BOOST_REQUIRE_MESSAGE(in, "cannot open " << kFixture << " (tests run from the source root)");
  return nlohmann::json::parse(in);
}

Fr dec(const nlohmann::json& v) {
  auto x = Fr::from_decimal(v.get<std::string>());
  BOOST_REQUIRE(x.has_value());
  return *x;
}

std::vector<Fr> dec_vec(const nlohmann::json& v) {
  std::vector<Fr> out;
  for (const auto& e : v) out.push_back(dec(e));
  return out;
}

std::vector<Fr> random_vec(std::size_t n, std::mt19937_64& rng) {
  std::vector<Fr> v(n);
  for (auto& x : v) x = Fr::random(rng);
  return v;
}

// p(x) = sum_i c[i] x^i by Horner.
Fr horner(const std::vector<Fr>& c, const Fr& x) {
  Fr acc = Fr::zero();
  for (std::size_t i = c.size(); i-- > 0;) acc = acc * x + c[i];
  return acc;
}

std::vector<Fr> naive_dft(const std::vector<Fr>& a, const Fr& omega) {
  std::vector<Fr> out(a.size());
  Fr wj = Fr::one();
  for (std::size_t j = 0; j < a.size(); ++j) {
    out[j] = horner(a, wj);
    wj = wj * omega;
  }
  return out;
}

void require_equal(const std::vector<Fr>& got, const std::vector<Fr>& want,
                   const std::string& what) {
  BOOST_REQUIRE_EQUAL(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    BOOST_REQUIRE_MESSAGE(got[i] == want[i], what << ": index " << i << " got "
                                                  << got[i].to_decimal() << " want "
                                                  << want[i].to_decimal());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(hostpoly_ntt)

// System: ffjavascript 0.3.1 (snarkjs 0.7.6's field library). Expectation: nqr, shift, 2-adicity
// and every w[k], k = 0..32, derived here equal its printed values exactly.
BOOST_AUTO_TEST_CASE(roots_match_ffjavascript) {
  const auto fx = load_fixture();
  const auto& R = ntt::fr_roots();
  // Same field: ffjavascript's p (it ends in ...513, so p - 1 only changes the last digit).
  std::string p_minus_1 = fx["p"].get<std::string>();
  BOOST_REQUIRE_EQUAL(p_minus_1.back(), '3');
  p_minus_1.back() = '2';
  BOOST_REQUIRE_EQUAL((-Fr::one()).to_decimal(), p_minus_1);
  BOOST_CHECK_EQUAL(R.s, fx["s"].get<unsigned>());
  BOOST_CHECK_EQUAL(R.nqr.to_decimal(), fx["nqr"].get<std::string>());
  BOOST_CHECK_EQUAL(R.shift.to_decimal(), fx["shift"].get<std::string>());
  BOOST_REQUIRE_EQUAL(fx["w"].size(), 33u);
  for (unsigned k = 0; k <= 32; ++k) {
    BOOST_CHECK_EQUAL(ntt::root_of_unity(k).to_decimal(), fx["w"][k].get<std::string>());
    BOOST_CHECK(R.w[k] * R.w_inv[k] == Fr::one());
  }
  BOOST_CHECK_THROW(ntt::root_of_unity(33), std::invalid_argument);
  BOOST_CHECK_THROW(ntt::Domain(33), std::invalid_argument);
}

// Expectation: Fr.fft and Fr.ifft outputs (natural order) and snarkjs's odd-point evaluation
// (ifft, scale by w[k+1]^i, fft) reproduced exactly with forward, inverse, coset_forward.
BOOST_AUTO_TEST_CASE(transforms_match_ffjavascript) {
  const auto fx = load_fixture();
  for (const auto& t : fx["transforms"]) {
    const unsigned log_n = t["log_n"].get<unsigned>();
    ntt::Domain d(log_n);
    const std::vector<Fr> input = dec_vec(t["input"]);
    BOOST_TEST_MESSAGE("ffjavascript transforms, n = " << d.size());

    std::vector<Fr> a = input;
    ntt::forward(d, a, 1);
    require_equal(a, dec_vec(t["fft"]), "Fr.fft");

    a = input;
    ntt::inverse(d, a, 1);
    require_equal(a, dec_vec(t["ifft"]), "Fr.ifft");

    ntt::coset_forward(d, a, d.circom_coset_shift(), 1);
    require_equal(a, dec_vec(t["odd_points"]), "odd points of the 2n domain");
  }
}

// The circom coset is the odd half of the 2n domain: g = w[k+1], g^n = -1, so the vanishing
// polynomial Z(x) = x^n - 1 is the constant -2 there; snarkjs's k = 32 case uses Fr.shift.
BOOST_AUTO_TEST_CASE(circom_coset_shift_is_odd_half_of_2n_domain) {
  for (unsigned k : {0u, 1u, 5u, 12u}) {
    ntt::Domain d(k, 1);
    BOOST_CHECK(d.circom_coset_shift() == ntt::circom_coset_shift(k));
  }
  for (unsigned k = 0; k < 32; ++k) {
    const Fr g = ntt::circom_coset_shift(k);
    BOOST_CHECK(g == ntt::root_of_unity(k + 1));
    BOOST_CHECK(g.pow(uint64_t{1} << k) - Fr::one() == -Fr::from_u64(2));
  }
  BOOST_CHECK(ntt::circom_coset_shift(32) == ntt::fr_roots().shift);
  BOOST_CHECK(ntt::fr_roots().shift == Fr::from_u64(25));
  BOOST_CHECK_THROW(ntt::circom_coset_shift(33), std::invalid_argument);
}

// Expectation: forward equals the O(n^2) DFT with omega = w[k], n = 1..256, 1 and 3 threads.
BOOST_AUTO_TEST_CASE(forward_matches_naive_dft) {
  std::mt19937_64 rng(11);
  for (unsigned log_n = 0; log_n <= 8; ++log_n) {
    ntt::Domain d(log_n, 1);
    const auto x = random_vec(d.size(), rng);
    const auto want = naive_dft(x, d.omega());
    for (unsigned threads : {1u, 3u}) {
      auto a = x;
      ntt::forward(d, a, threads);
      require_equal(a, want, "forward n=" + std::to_string(d.size()));
    }
  }
}

// Large sizes, where the cache-blocked and multithreaded paths run: output j equals the input
// polynomial evaluated at omega^j (Horner) at 12 random j; 1 and 4 threads agree exactly.
BOOST_AUTO_TEST_CASE(forward_large_matches_horner_and_threads_agree) {
  std::mt19937_64 rng(12);
  for (unsigned log_n : {13u, 14u, 17u}) {
    ntt::Domain d(log_n, 2);
    const auto x = random_vec(d.size(), rng);
    auto a1 = x, a4 = x;
    ntt::forward(d, a1, 1);
    ntt::forward(d, a4, 4);
    require_equal(a4, a1, "threads 4 vs 1, n=" + std::to_string(d.size()));
    for (int k = 0; k < 12; ++k) {
      std::size_t j = rng() % d.size();
      BOOST_REQUIRE_MESSAGE(a1[j] == horner(x, d.omega().pow(static_cast<uint64_t>(j))),
                            "n=" << d.size() << " j=" << j);
    }
  }
}

// Expectation: inverse(forward(x)) = x and forward(inverse(x)) = x for n = 1 .. 2^16.
BOOST_AUTO_TEST_CASE(round_trip_many_sizes) {
  std::mt19937_64 rng(13);
  for (unsigned log_n = 0; log_n <= 16; ++log_n) {
    ntt::Domain d(log_n, 2);
    const auto x = random_vec(d.size(), rng);
    auto a = x;
    ntt::forward(d, a, 2);
    ntt::inverse(d, a, 3);
    require_equal(a, x, "inverse(forward) n=" + std::to_string(d.size()));
    ntt::inverse(d, a, 1);
    ntt::forward(d, a, 4);
    require_equal(a, x, "forward(inverse) n=" + std::to_string(d.size()));
  }
}

// Coset transforms with an arbitrary shift: coset_forward(x)[j] = p(shift * omega^j), and
// coset_inverse undoes it.
BOOST_AUTO_TEST_CASE(coset_round_trip_and_evaluation) {
  std::mt19937_64 rng(14);
  for (unsigned log_n : {0u, 1u, 4u, 9u, 14u}) {
    ntt::Domain d(log_n, 2);
    const Fr shift = Fr::random(rng);
    const auto x = random_vec(d.size(), rng);
    auto a = x;
    ntt::coset_forward(d, a, shift, 2);
    for (int k = 0; k < 6; ++k) {
      std::size_t j = rng() % d.size();
      BOOST_REQUIRE(a[j] == horner(x, shift * d.omega().pow(static_cast<uint64_t>(j))));
    }
    ntt::coset_inverse(d, a, shift, 3);
    require_equal(a, x, "coset round trip n=" + std::to_string(d.size()));
  }
  ntt::Domain d(3, 1);
  std::vector<Fr> a(8, Fr::one());
  BOOST_CHECK_THROW(ntt::coset_inverse(d, a, Fr::zero()), std::invalid_argument);
}

// Polynomial product of degrees 100 and 150 through a 256-point NTT equals the schoolbook
// product (degree 250 < 256: no wrap-around).
BOOST_AUTO_TEST_CASE(polynomial_multiplication_matches_schoolbook) {
  std::mt19937_64 rng(15);
  const auto p = random_vec(101, rng), q = random_vec(151, rng);
  std::vector<Fr> want(p.size() + q.size() - 1, Fr::zero());
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t j = 0; j < q.size(); ++j) want[i + j] = want[i + j] + p[i] * q[j];

  ntt::Domain d(8, 2);
  std::vector<Fr> a(d.size(), Fr::zero()), b(d.size(), Fr::zero());
  std::copy(p.begin(), p.end(), a.begin());
  std::copy(q.begin(), q.end(), b.begin());
  ntt::forward(d, a, 2);
  ntt::forward(d, b, 2);
  for (std::size_t i = 0; i < d.size(); ++i) a[i] = a[i] * b[i];
  ntt::inverse(d, a, 2);
  for (std::size_t i = want.size(); i < d.size(); ++i) BOOST_REQUIRE(a[i].is_zero());
  a.resize(want.size());
  require_equal(a, want, "NTT product");
}

// Contract: a span whose length differs from the domain size is rejected.
BOOST_AUTO_TEST_CASE(size_mismatch_throws) {
  ntt::Domain d(4, 1);
  std::vector<Fr> a(15, Fr::one());
  BOOST_CHECK_THROW(ntt::forward(d, a), std::invalid_argument);
  BOOST_CHECK_THROW(ntt::inverse(d, a), std::invalid_argument);
  BOOST_CHECK_THROW(ntt::coset_forward(d, a, Fr::one()), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()
