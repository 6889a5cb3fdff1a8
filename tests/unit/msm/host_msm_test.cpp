// Host MSM (gpu/msm): Pippenger on G1 and G2 against the naive sum of double-and-add scalar
// multiplications (gpu/ec's reference). Group arithmetic is exact: results must be equal points.
#include <boost/test/unit_test.hpp>
#include <random>
#include <string>
#include <vector>

#include "gpu/msm/host_msm.hpp"

using prestage::ff::Fr;
namespace ec = prestage::ec;
namespace msm = prestage::msm;

namespace {

const msm::BucketMode kModes[] = {msm::BucketMode::automatic, msm::BucketMode::xyzz,
                                  msm::BucketMode::batch_affine};

// n points: random multiples of the generator chained by a random step, with the special cases
// MSMs meet in practice mixed in: repeats, a point and its negation, the identity.
template <class Affine, class Jacobian>
std::vector<Affine> make_points(std::size_t n, std::mt19937_64& rng) {
  std::vector<Jacobian> jac(n);
  Jacobian acc = Jacobian::generator().mul(Fr::random(rng));
  const Jacobian step = Jacobian::generator().mul(Fr::random(rng));
  for (auto& p : jac) {
    p = acc;
    acc = acc + step;
  }
  std::vector<Affine> out(n);
  ec::batch_to_affine(std::span<const Jacobian>(jac), std::span<Affine>(out));
  if (n >= 17) {
    out[3] = out[1];              // repeated point
    out[9] = out[1];              // ... three times
    out[4] = -out[2];             // P and -P
    out[5] = Affine::identity();  // identity base
    out[n - 1] = Affine::identity();
  }
  return out;
}

// Scalars: random, with zeros, ones, r - 1 and values at signed-digit boundaries mixed in.
std::vector<Fr> make_scalars(std::size_t n, std::mt19937_64& rng) {
  std::vector<Fr> s(n);
  for (auto& x : s) x = Fr::random(rng);
  const Fr special[] = {Fr::zero(),
                        Fr::one(),
                        -Fr::one(),  // r - 1
                        Fr::from_u64(1u << 12),
                        Fr::from_u64((1u << 13) - 1),
                        Fr::from_u64(1u << 15),
                        Fr::from_u64(0xFFFFFFFFFFFFFFFFull),
                        -Fr::from_u64(2),
                        Fr::zero()};
  for (std::size_t i = 0; i < n && i < std::size(special); ++i) s[(i * 7 + 2) % n] = special[i];
  if (n >= 17) s[1] = Fr::random(rng), s[9] = -Fr::one();  // repeated point with r - 1
  return s;
}

template <class Jacobian, class Affine>
Jacobian naive(const std::vector<Affine>& p, const std::vector<Fr>& s) {
  Jacobian acc = Jacobian::identity();
  for (std::size_t i = 0; i < p.size(); ++i) acc = acc + p[i].mul(s[i]);
  return acc;
}

template <class Curve>
void check_sizes(std::initializer_list<std::size_t> sizes, uint64_t seed) {
  using Affine = typename Curve::Affine;
  using Jacobian = typename Curve::Jacobian;
  std::mt19937_64 rng(seed);
  for (std::size_t n : sizes) {
    const auto p = make_points<Affine, Jacobian>(n, rng);
    const auto s = make_scalars(n, rng);
    const Jacobian want = naive<Jacobian>(p, s);
    for (unsigned threads : {1u, 3u}) {
      const Jacobian got = msm::msm<Curve>(p, s, {threads, 0});
      BOOST_REQUIRE_MESSAGE(got == want, "n=" << n << " threads=" << threads
                                              << " window=" << msm::window_bits_for(n));
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(hostpoly_msm)

// System: Pippenger MSM on G1. Expectation: equals sum_i s_i P_i by double-and-add for
// n = 1, 2, 3, 17, 100, 1000 (zero scalars, r - 1, repeated points, P and -P, identity bases).
BOOST_AUTO_TEST_CASE(g1_matches_naive_sum) {
  check_sizes<msm::G1Curve>({1, 2, 3, 17, 100, 1000}, 21);
}

// Same on G2 (Fq2 coordinates), sizes 1, 2, 3, 17, 100, 300.
BOOST_AUTO_TEST_CASE(g2_matches_naive_sum) {
  check_sizes<msm::G2Curve>({1, 2, 3, 17, 100, 300}, 22);
}

// Every window c = 1..16 and thread counts 1..6 give the same point (the digit and bucket
// bookkeeping, and the split of windows into point ranges, are exact).
BOOST_AUTO_TEST_CASE(every_window_and_thread_count_agree) {
  std::mt19937_64 rng(23);
  const std::size_t n = 200;
  const auto p = make_points<ec::G1Affine, ec::G1Jacobian>(n, rng);
  const auto s = make_scalars(n, rng);
  const ec::G1Jacobian want = naive<ec::G1Jacobian>(p, s);
  for (auto mode : kModes) {
    for (unsigned c = 1; c <= 16; ++c)
      BOOST_REQUIRE_MESSAGE((msm::msm<msm::G1Curve>(p, s, {2, c, mode})) == want,
                            "window " << c << " mode " << static_cast<int>(mode));
    for (unsigned threads = 1; threads <= 6; ++threads)
      BOOST_REQUIRE_MESSAGE((msm::msm<msm::G1Curve>(p, s, {threads, 3, mode})) == want,
                            "threads " << threads << " mode " << static_cast<int>(mode));
  }
}

// All-zero scalars, all-identity bases and n = 0 give the identity; all scalars r - 1 give
// minus the sum of the points.
BOOST_AUTO_TEST_CASE(degenerate_inputs) {
  std::mt19937_64 rng(24);
  const auto p = make_points<ec::G1Affine, ec::G1Jacobian>(50, rng);
  std::vector<Fr> zeros(50, Fr::zero()), minus_one(50, -Fr::one());
  BOOST_CHECK(msm::msm_g1(p, zeros).is_identity());
  std::vector<ec::G1Affine> ids(50, ec::G1Affine::identity());
  BOOST_CHECK(msm::msm_g1(ids, minus_one).is_identity());
  BOOST_CHECK(msm::msm_g1({}, {}).is_identity());
  ec::G1Jacobian sum = ec::G1Jacobian::identity();
  for (const auto& q : p) sum = sum + q;
  BOOST_CHECK(msm::msm_g1(p, minus_one, 2) == -sum);
}

// Batch-affine buckets under collisions: few distinct points and tiny scalars put many additions
// on the same buckets (busy-bucket overflow), including P + P and P + (-P) inside one batch.
BOOST_AUTO_TEST_CASE(batch_affine_collisions_doubling_and_cancellation) {
  std::mt19937_64 rng(25);
  const auto base = make_points<ec::G1Affine, ec::G1Jacobian>(4, rng);
  std::vector<ec::G1Affine> p;
  std::vector<Fr> s;
  for (int i = 0; i < 3000; ++i) {
    ec::G1Affine q = base[rng() % 4];
    p.push_back(rng() % 3 == 0 ? -q : q);
    s.push_back(Fr::from_u64(1 + rng() % 3));
  }
  const ec::G1Jacobian want = naive<ec::G1Jacobian>(p, s);
  for (unsigned c : {2u, 4u, 10u, 12u})
    for (unsigned threads : {1u, 2u})
      BOOST_REQUIRE_MESSAGE(
          (msm::msm<msm::G1Curve>(p, s, {threads, c, msm::BucketMode::batch_affine})) == want,
          "window " << c << " threads " << threads);
}

// PoRep-shaped scalars: 90% are 0 or 1 (taken out of Pippenger), the rest random; and all ones
// (the plain sum of the bases, repeats included).
BOOST_AUTO_TEST_CASE(mostly_binary_scalars) {
  std::mt19937_64 rng(26);
  const std::size_t n = 1000;
  const auto p = make_points<ec::G1Affine, ec::G1Jacobian>(n, rng);
  std::vector<Fr> s(n);
  for (auto& x : s) {
    const auto r = rng() % 10;
    x = r < 5 ? Fr::zero() : r < 9 ? Fr::one() : Fr::random(rng);
  }
  const ec::G1Jacobian want = naive<ec::G1Jacobian>(p, s);
  for (auto mode : kModes)
    for (unsigned threads : {1u, 4u})
      BOOST_REQUIRE_MESSAGE((msm::msm<msm::G1Curve>(p, s, {threads, 0, mode})) == want,
                            "threads " << threads << " mode " << static_cast<int>(mode));
  std::vector<Fr> ones(n, Fr::one());
  ec::G1Jacobian sum = ec::G1Jacobian::identity();
  for (const auto& q : p) sum = sum + q;
  BOOST_CHECK(msm::msm_g1(p, ones, 3) == sum);
}

// Contract: mismatched lengths and windows outside [1, 16] are rejected; the window rule stays
// in range and grows with n.
BOOST_AUTO_TEST_CASE(contract_checks_and_window_rule) {
  std::vector<ec::G1Affine> p(3, ec::G1Affine::generator());
  std::vector<Fr> s(2, Fr::one());
  BOOST_CHECK_THROW(msm::msm_g1(p, s), std::invalid_argument);
  s.push_back(Fr::one());
  BOOST_CHECK_THROW((msm::msm<msm::G1Curve>(p, s, {1, 17})), std::invalid_argument);
  BOOST_CHECK(msm::msm_g1(p, s) == ec::G1Affine::generator().mul(Fr::from_u64(3)));
  unsigned prev = 0;
  for (unsigned k = 0; k <= 30; ++k) {
    unsigned c = msm::window_bits_for(std::size_t{1} << k);
    BOOST_CHECK(c >= 1 && c <= 16);
    BOOST_CHECK(c >= prev);
    prev = c;
  }
}

BOOST_AUTO_TEST_SUITE_END()
