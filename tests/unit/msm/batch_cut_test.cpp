// Host MSM (gpu/msm/host_msm.cpp): the batch-affine buckets' per-window batch cut
// (AffineBuckets::use_buckets: a quarter of the buckets the window's digits reach, at least 16).
// System: G1 MSM, c = 13 forced (4096 buckets, full batch 1024), GLV on, 2 threads, batch-affine
// buckets on IFMA lanes and on the scalar path; scalars whose windows reach few buckets, so the
// cut batch is small and most points meet a busy bucket (deferral, queue overflow into XYZZ):
//  - every scalar < 64: window 0 reaches <= 32 buckets (batch 16), the other windows none;
//  - scalars < 2^40 with repeats: GLV's k2 = 0, windows 0-3 reach from 4096 down to a few;
//  - random scalars mixed with the above (the prover's case: the top window reaches ~1380).
// Expectation: the same point as the XYZZ buckets (no batching, no deferral) give for the same
// input. Tolerance: none (exact group arithmetic; Jacobian equality is projective).
#include <boost/test/unit_test.hpp>
#include <random>
#include <vector>

#include "gpu/msm/host_msm.hpp"

using prestage::ff::Fr;
namespace ec = prestage::ec;
namespace msm = prestage::msm;

namespace {

// n affine points: a random multiple of the generator stepped by another (all distinct).
std::vector<ec::G1Affine> chain_points(std::size_t n, std::mt19937_64& rng) {
  std::vector<ec::G1Jacobian> jac(n);
  ec::G1Jacobian acc = ec::G1Jacobian::generator().mul(Fr::random(rng));
  const ec::G1Jacobian step = ec::G1Jacobian::generator().mul(Fr::random(rng));
  for (auto& p : jac) {
    p = acc;
    acc = acc + step;
  }
  std::vector<ec::G1Affine> out(n);
  ec::batch_to_affine(std::span<const ec::G1Jacobian>(jac), std::span<ec::G1Affine>(out));
  return out;
}

void check_all_paths(const std::vector<ec::G1Affine>& p, const std::vector<Fr>& s,
                     const char* what) {
  const ec::G1Jacobian want = msm::msm<msm::G1Curve>(p, s, {2, 13, msm::BucketMode::xyzz});
  for (bool simd : {true, false}) {
    msm::HostOptions o{2, 13, msm::BucketMode::batch_affine};
    o.simd = simd;
    BOOST_TEST_CONTEXT(what << " simd=" << simd) {
      BOOST_TEST((msm::msm<msm::G1Curve>(p, s, o) == want));
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(host_msm_batch_cut)

BOOST_AUTO_TEST_CASE(windows_reaching_few_buckets_match_xyzz) {
  std::mt19937_64 rng(20261201);
  const std::size_t n = 6000;
  const auto p = chain_points(n, rng);
  std::vector<Fr> s(n);

  for (auto& x : s) x = Fr::from_u64(2 + rng() % 62);  // [2, 64): no 0/1 shortcut
  check_all_paths(p, s, "scalars < 64");

  for (std::size_t i = 0; i < n; ++i)  // < 2^40, every 5th a repeat of a small set
    s[i] = Fr::from_u64(i % 5 == 0 ? 1000 + rng() % 8 : 2 + (rng() >> 24));
  check_all_paths(p, s, "scalars < 2^40");

  for (std::size_t i = 0; i < n; ++i)
    s[i] = i % 3 == 0 ? Fr::random(rng) : Fr::from_u64(2 + rng() % (i % 3 == 1 ? 62 : 1u << 20));
  check_all_paths(p, s, "mixed");
}

BOOST_AUTO_TEST_SUITE_END()
