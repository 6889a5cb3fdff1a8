// System: the GLV split of G1 MSM scalars (gpu/msm/glv.hpp) and the host MSM that uses it
// (gpu/msm/host_msm.cpp, HostOptions::endomorphism).
// Expectation: split(k) gives k1 < lambda and k2 <= lambda + 1 with k1 + k2 * lambda == k exactly
// (256-bit integers) for random and edge scalars; phi(P) = (beta x, y) equals lambda * P by
// double-and-add; the MSM with GLV equals the MSM without it and the naive sum of double-and-add
// products, for random points and scalars and the edge scalars 0, 1, r - 1, lambda, lambda + 1,
// lambda^2, 2^128, at every window, thread count and bucket mode. Tolerance: none (exact integers
// and group elements).
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <random>
#include <vector>

#include "gpu/ec/sample_points.hpp"
#include "gpu/msm/glv.hpp"
#include "gpu/msm/host_msm.hpp"

using prestage::ff::Fr;
namespace ec = prestage::ec;
namespace msm = prestage::msm;
using Limbs4 = std::array<uint64_t, 4>;
using u128 = unsigned __int128;

namespace {

// a * b + c for a, b < 2^128, c < 2^128, as 4 limbs (exact).
Limbs4 mul_add(const std::array<uint64_t, 2>& a, const std::array<uint64_t, 2>& b,
               const std::array<uint64_t, 2>& c) {
  Limbs4 out{};
  for (int i = 0; i < 2; ++i) {
    u128 carry = 0;
    for (int j = 0; j < 2; ++j) {
      const u128 t = u128(a[i]) * b[j] + out[i + j] + carry;
      out[i + j] = uint64_t(t);
      carry = t >> 64;
    }
    out[i + 2] = uint64_t(carry);
  }
  u128 carry = 0;
  for (int i = 0; i < 4; ++i) {
    const u128 t = u128(out[i]) + (i < 2 ? c[i] : 0) + carry;
    out[i] = uint64_t(t);
    carry = t >> 64;
  }
  return out;
}

bool less(const std::array<uint64_t, 2>& a, const std::array<uint64_t, 2>& b) {
  return a[1] != b[1] ? a[1] < b[1] : a[0] < b[0];
}

Fr from_limbs(const Limbs4& v) {
  return Fr::from_canonical(v);
}

const Fr kLambda = from_limbs({msm::glv::kLambda[0], msm::glv::kLambda[1], 0, 0});

// Edge scalars: 0, 1, r - 1, lambda - 1, lambda, lambda + 1, lambda^2 (= r - lambda - 1),
// 2^127, 2^128, 2^128 - 1, r - lambda, (r - 1) / 2.
std::vector<Fr> edge_scalars() {
  const Fr two128 = from_limbs({0, 0, 1, 0});
  return {
      Fr::zero(), Fr::one(),           -Fr::one(),    kLambda - Fr::one(),
      kLambda,    kLambda + Fr::one(), kLambda.sqr(), from_limbs({0, 0x8000000000000000ull, 0, 0}),
      two128,     two128 - Fr::one(),  -kLambda,      (-Fr::one()) * Fr::from_u64(2).inverse()};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(glv)

// lambda is a primitive cube root of unity mod r (lambda^2 + lambda + 1 == 0), and split() is
// exact with both halves below 2^128 on 10^5 random scalars and the edge scalars.
BOOST_AUTO_TEST_CASE(split_is_exact_and_short) {
  BOOST_REQUIRE((kLambda.sqr() + kLambda + Fr::one()).is_zero());
  const std::array<uint64_t, 2> lambda = msm::glv::kLambda;
  const std::array<uint64_t, 2> lambda_plus_2 = {lambda[0] + 2, lambda[1]};  // no carry: low limb
  std::mt19937_64 rng(31);
  std::vector<Fr> ks = edge_scalars();
  for (int i = 0; i < 100000; ++i) ks.push_back(Fr::random(rng));
  for (const Fr& k : ks) {
    const Limbs4 kc = k.to_canonical();
    std::array<uint64_t, 2> k1, k2;
    msm::glv::split(kc, k1, k2);
    BOOST_REQUIRE(less(k1, lambda));
    BOOST_REQUIRE(less(k2, lambda_plus_2));
    BOOST_REQUIRE(mul_add(k2, lambda, k1) == kc);
  }
}

// phi(P) = (beta x, y) is lambda * P (double-and-add) on the generator and random points; beta is
// a nontrivial cube root of unity; the identity maps to itself.
BOOST_AUTO_TEST_CASE(phi_is_multiplication_by_lambda) {
  BOOST_REQUIRE(!msm::glv::beta().is_one());
  BOOST_REQUIRE((msm::glv::beta().sqr() * msm::glv::beta()).is_one());
  std::mt19937_64 rng(32);
  auto pts = ec::random_walk_points<ec::G1Affine, ec::G1Jacobian>(8, rng);
  pts.push_back(ec::G1Affine::generator());
  for (const auto& p : pts) {
    const ec::G1Affine q = msm::glv::phi(p);
    BOOST_REQUIRE(q.is_on_curve());
    BOOST_REQUIRE(p.mul(kLambda) == q);
  }
  BOOST_CHECK(msm::glv::phi(ec::G1Affine::identity()).infinity);
}

// The G1 MSM with GLV equals the plain MSM and the naive sum: random scalars with the edge
// scalars mixed in, n = 1, 2, 3, 17, 100, 700 (with repeated points, P and -P, identity bases),
// threads 1 and 3.
BOOST_AUTO_TEST_CASE(msm_with_glv_matches_plain_and_naive) {
  std::mt19937_64 rng(33);
  const auto edges = edge_scalars();
  for (std::size_t n : {1u, 2u, 3u, 17u, 100u, 700u}) {
    auto p = ec::random_walk_points<ec::G1Affine, ec::G1Jacobian>(n, rng);
    if (n >= 17) {
      p[3] = p[1];
      p[4] = -p[2];
      p[5] = ec::G1Affine::identity();
    }
    std::vector<Fr> s(n);
    for (std::size_t i = 0; i < n; ++i) s[i] = i < edges.size() ? edges[i] : Fr::random(rng);
    std::shuffle(s.begin(), s.end(), rng);
    ec::G1Jacobian want = ec::G1Jacobian::identity();
    for (std::size_t i = 0; i < n; ++i) want = want + p[i].mul(s[i]);
    for (unsigned threads : {1u, 3u}) {
      const auto got = msm::msm<msm::G1Curve>(p, s, {threads, 0, msm::BucketMode::automatic, true});
      const auto plain =
          msm::msm<msm::G1Curve>(p, s, {threads, 0, msm::BucketMode::automatic, false});
      BOOST_REQUIRE_MESSAGE(got == want, "GLV, n=" << n << " threads=" << threads);
      BOOST_REQUIRE_MESSAGE(plain == want, "plain, n=" << n << " threads=" << threads);
    }
  }
}

// Every window c = 1..16, both bucket modes, threads 1..4: the GLV digits (128-bit halves, W =
// floor(128/c) + 1 windows) and row layout (P, phi(P) interleaved) give the same point. Each edge
// scalar alone on one point gives scalar * P.
BOOST_AUTO_TEST_CASE(every_window_mode_and_edge_scalar) {
  std::mt19937_64 rng(34);
  const std::size_t n = 150;
  const auto p = ec::random_walk_points<ec::G1Affine, ec::G1Jacobian>(n, rng);
  std::vector<Fr> s(n);
  for (auto& x : s) x = Fr::random(rng);
  ec::G1Jacobian want = ec::G1Jacobian::identity();
  for (std::size_t i = 0; i < n; ++i) want = want + p[i].mul(s[i]);
  for (auto mode : {msm::BucketMode::xyzz, msm::BucketMode::batch_affine}) {
    for (unsigned c = 1; c <= 16; ++c)
      BOOST_REQUIRE_MESSAGE((msm::msm<msm::G1Curve>(p, s, {2, c, mode, true})) == want,
                            "window " << c << " mode " << static_cast<int>(mode));
    for (unsigned threads = 1; threads <= 4; ++threads)
      BOOST_REQUIRE_MESSAGE((msm::msm<msm::G1Curve>(p, s, {threads, 5, mode, true})) == want,
                            "threads " << threads << " mode " << static_cast<int>(mode));
  }
  for (const Fr& k : edge_scalars()) {
    const std::vector<ec::G1Affine> one_point = {p[7], p[7]};
    const std::vector<Fr> one_scalar = {k, Fr::zero()};
    BOOST_REQUIRE(msm::msm_g1(one_point, one_scalar, 1) == p[7].mul(k));
  }
}

// The batch-affine buckets' deferral and overflow paths on G2 (Fq2 coordinates, Fermat inversion)
// and G1: few distinct points and small scalars put many additions on the same buckets inside one
// batch (deferred, re-submitted, overflowing), with P + P and P + (-P) among them; random scalars
// at c = 11 (a real batch of 256). Expectation: the naive sum, exactly.
BOOST_AUTO_TEST_CASE(batch_affine_deferral_g1_g2) {
  std::mt19937_64 rng(35);
  auto check = [&](auto curve_tag, std::size_t n) {
    using Curve = decltype(curve_tag);
    using Affine = typename Curve::Affine;
    using Jacobian = typename Curve::Jacobian;
    const auto base = ec::random_walk_points<Affine, Jacobian>(5, rng);
    std::vector<Affine> p;
    std::vector<Fr> small, big;
    for (std::size_t i = 0; i < n; ++i) {
      const Affine q = base[rng() % 5];
      p.push_back(rng() % 3 == 0 ? -q : q);
      small.push_back(Fr::from_u64(1 + rng() % 6));
      big.push_back(Fr::random(rng));
    }
    for (const auto* s : {&small, &big}) {
      Jacobian want = Jacobian::identity();
      for (std::size_t i = 0; i < n; ++i) want = want + p[i].mul((*s)[i]);
      for (unsigned c : {3u, 11u})
        for (unsigned threads : {1u, 2u})
          BOOST_REQUIRE_MESSAGE(
              (msm::msm<Curve>(p, *s, {threads, c, msm::BucketMode::batch_affine, true, 16})) ==
                  want,
              "n " << n << " window " << c << " threads " << threads);
    }
  };
  check(msm::G1Curve{}, 600);
  check(msm::G2Curve{}, 200);
}

BOOST_AUTO_TEST_SUITE_END()
