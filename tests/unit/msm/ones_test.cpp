// System: msm::msm on G1 and G2 with scalars that are mostly 0 and 1 (a PoRep / SHA-256 witness),
// where the bases with scalar 1 are summed by the batch-affine IFMA tree (sum_affine_ifma) when
// the CPU has AVX-512 IFMA, else by XYZZ mixed additions.
// Expectation: the result equals the naive sum of the 1-scalar bases plus the general terms, with
// repeated bases (the tree meets P + P), negated bases (P + (-P), an identity dropped between
// rounds), identity bases, odd counts and, at n = 4500, a first 4096-base piece with ~2300 ones
// (more than one batch of 1024 pairs in the first round); the IFMA and the
// scalar path give the same Jacobian limbs. Tolerance: exact (group equality, limb equality).
#include <boost/test/unit_test.hpp>
#include <random>
#include <vector>

#include "gpu/ec/sample_points.hpp"
#include "gpu/msm/host_msm.hpp"

using namespace prestage;
using ff::Fr;

namespace {

template <class Curve, class Affine, class Jac>
void check(std::size_t n, std::size_t distinct, std::mt19937_64& rng) {
  const auto base = ec::random_walk_points<Affine, Jac>(distinct, rng);
  std::vector<Affine> p(n);
  std::vector<Fr> s(n);
  Jac want = Jac::identity();
  for (std::size_t i = 0; i < n; ++i) {
    const Affine q = base[rng() % distinct];
    p[i] = rng() % 3 == 0 ? -q : q;
    const unsigned r = rng() % 16;
    s[i] = r < 9 ? Fr::one() : r < 15 ? Fr::zero() : Fr::random(rng);
    if (i % 97 == 5) p[i] = Affine::identity();
  }
  for (std::size_t i = 0; i < n; ++i)
    if (s[i] == Fr::one())
      want = want + Jac::from_affine(p[i]);
    else if (!s[i].is_zero())
      want = want + p[i].mul(s[i]);
  for (unsigned threads : {1u, 2u}) {
    msm::HostOptions on;
    on.threads = threads;
    msm::HostOptions off = on;
    off.simd = false;
    const Jac a = msm::msm<Curve>(p, s, on), b = msm::msm<Curve>(p, s, off);
    BOOST_TEST((a == want), "IFMA path, n " << n << ", distinct " << distinct);
    BOOST_TEST((b == want), "scalar path, n " << n << ", distinct " << distinct);
    BOOST_TEST((a.X == b.X && a.Y == b.Y && a.Z == b.Z), "limbs, n " << n);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(ones_sums_match_naive_g1) {
  std::mt19937_64 rng(11);
  for (std::size_t n : {1u, 2u, 3u, 17u, 300u, 4500u})
    for (std::size_t distinct : {1u, 3u, 50u})
      check<msm::G1Curve, ec::G1Affine, ec::G1Jacobian>(n, distinct, rng);
}

BOOST_AUTO_TEST_CASE(ones_sums_match_naive_g2) {
  std::mt19937_64 rng(12);
  for (std::size_t n : {1u, 2u, 3u, 17u, 300u, 4500u})
    for (std::size_t distinct : {1u, 3u, 50u})
      check<msm::G2Curve, ec::G2Affine, ec::G2Jacobian>(n, distinct, rng);
}
