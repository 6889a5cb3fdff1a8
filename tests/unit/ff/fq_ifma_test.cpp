// System: Fq8, eight BLS12-381 Fq elements on 52-bit limbs with AVX-512 IFMA products
// (gpu/ff/fq_ifma.hpp), and the host G1 MSM whose batch-affine additions run on it
// (gpu/msm/host_msm.cpp, HostOptions::simd).
// Expectation: per lane, mul(a, b) == a * b * 2^-384 mod p computed with GMP (the Montgomery
// product of ff::Fq, same domain), sub == a - b mod p, add == a + b mod p, and each equals the
// scalar Fq operation bit for bit; the repacking 6 x 64 <-> 8 x 52 bits round-trips. Operands:
// the edge values 0, 1, 2, p - 1, p - 2, (p -+ 1) / 2, 2^64 - 1, 2^64, all-ones limbs, p - those,
// in every pairing and lane position, plus random values. The MSM with the IFMA additions equals
// the MSM with the scalar additions and the naive sum of double-and-add products: random points
// and scalars; repeated points (P + P in a bucket), P and -P (P + (-P)), identity bases, scalars
// 0 and 1; few distinct points with small scalars (deferral and overflow); batch sizes that
// leave partial groups of 8 lanes. Tolerance: none (exact integers and group elements).
// Without AVX-512 IFMA the Fq8 case is skipped with a message and the MSM cases compare the scalar
// path with the naive sum only (as they do under PRESTAGE_HOST_IFMA=0).
#include <boost/test/unit_test.hpp>
#include <random>
#include <vector>

#include "gpu/ec/sample_points.hpp"
#include "gpu/ff/fq_ifma.hpp"
#include "gpu/msm/host_msm.hpp"
#include "tests/unit/ff/gmp_oracle.hpp"

using prestage::ff::Fq;
using prestage::ff::Fr;
using prestage::test::from_mpz;
using prestage::test::modulus_mpz;
using prestage::test::to_mpz;
namespace ec = prestage::ec;
namespace msm = prestage::msm;

namespace {

#if PRESTAGE_FF_HOST_IFMA
namespace vi = prestage::ff::ifma;
// Portable wrappers (the Fq8 values stay inside IFMA-target code): out = op(a, b) lane by lane.
PRESTAGE_IFMA_TARGET [[gnu::noinline]] void lanes_mul(const Fq* a, const Fq* b, Fq* out) {
  vi::store(vi::mul(vi::load(a), vi::load(b)), out);
}
PRESTAGE_IFMA_TARGET [[gnu::noinline]] void lanes_sub(const Fq* a, const Fq* b, Fq* out) {
  vi::store(vi::sub(vi::load(a), vi::load(b)), out);
}
PRESTAGE_IFMA_TARGET [[gnu::noinline]] void lanes_add(const Fq* a, const Fq* b, Fq* out) {
  vi::store(vi::add(vi::load(a), vi::load(b)), out);
}
PRESTAGE_IFMA_TARGET [[gnu::noinline]] void lanes_roundtrip(const Fq* a, Fq* out) {
  vi::store(vi::load(a), out);
}
bool have_ifma() {
  if (vi::cpu_has_ifma()) return true;
  BOOST_TEST_MESSAGE("CPU lacks AVX-512 IFMA: Fq8 not exercised (scalar path only)");
  return false;
}
#endif

Fq raw(const mpz_class& v) {
  return Fq::from_raw(from_mpz<6>(v));
}
// The raw Montgomery limbs of x as an integer.
mpz_class limbs(const Fq& x) {
  std::array<uint64_t, 6> v;
  for (std::size_t i = 0; i < 6; ++i) v[i] = x.limb[i];
  return to_mpz(v);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ifma)

// Fq8 mul/add/sub vs GMP and vs the scalar Fq operations, every edge pairing in every lane.
BOOST_AUTO_TEST_CASE(fq8_matches_gmp_and_scalar) {
#if PRESTAGE_FF_HOST_IFMA
  if (!have_ifma()) return;
  const mpz_class p = modulus_mpz<Fq>();
  mpz_class rinv;  // 2^-384 mod p
  const mpz_class R = mpz_class(1) << 384;
  mpz_invert(rinv.get_mpz_t(), R.get_mpz_t(), p.get_mpz_t());
  const auto vals = prestage::test::edge_and_random_operands<Fq>(60, 20261130);
  const std::size_t nv = vals.size();
  std::size_t checked = 0;
  // Pairs (i, j) go to lane (i + j) mod 8 of successive groups, so every pairing meets every
  // lane over the sweep.
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  for (std::size_t i = 0; i < nv; ++i)
    for (std::size_t j = 0; j < nv; ++j) pairs.emplace_back(i, j);
  for (std::size_t base = 0; base < pairs.size(); base += 8) {
    Fq a[8], b[8], m[8], s[8], d[8], rt[8];
    for (std::size_t l = 0; l < 8; ++l) {
      const auto [i, j] = pairs[(base + l * 131) % pairs.size()];
      a[l] = raw(vals[i]);
      b[l] = raw(vals[j]);
    }
    lanes_mul(a, b, m);
    lanes_sub(a, b, s);
    lanes_add(a, b, d);
    lanes_roundtrip(a, rt);
    for (std::size_t l = 0; l < 8; ++l) {
      const mpz_class x = limbs(a[l]), y = limbs(b[l]);
      const mpz_class want_m = (x * y * rinv) % p;
      mpz_class want_s = (x - y) % p;
      if (want_s < 0) want_s += p;
      const mpz_class want_d = (x + y) % p;
      BOOST_REQUIRE_MESSAGE(limbs(m[l]) == want_m, "mul lane " << l << ": " << x << " * " << y);
      BOOST_REQUIRE_MESSAGE(limbs(s[l]) == want_s, "sub lane " << l);
      BOOST_REQUIRE_MESSAGE(limbs(d[l]) == want_d, "add lane " << l);
      BOOST_REQUIRE(m[l] == a[l] * b[l]);
      BOOST_REQUIRE(s[l] == a[l] - b[l]);
      BOOST_REQUIRE(d[l] == a[l] + b[l]);
      BOOST_REQUIRE(rt[l] == a[l]);
      ++checked;
    }
  }
  BOOST_TEST_MESSAGE("Fq8: " << checked << " lane results checked");
  BOOST_TEST(checked >= nv * nv);
#else
  BOOST_TEST_MESSAGE("not an x86-64 g++/clang build: Fq8 not compiled");
#endif
}

// The MSM with IFMA additions == scalar additions == naive sum, on the inputs named at the top.
BOOST_AUTO_TEST_CASE(msm_ifma_matches_scalar_and_naive) {
  std::mt19937_64 rng(41);
  for (std::size_t n : {9u, 100u, 1000u, 5000u}) {
    auto p = ec::random_walk_points<ec::G1Affine, ec::G1Jacobian>(n, rng);
    std::vector<Fr> s(n);
    for (auto& x : s) x = Fr::random(rng);
    // Edge inputs: repeated points, P and -P, identity bases, scalars 0, 1, -1, 2.
    // Same scalar, hence the same bucket in every window: P then -P (the pending addition is
    // P + (-P)), Q then Q (Q + Q, the tangent).
    for (std::size_t i = 0; i + 8 < n; i += 8) {
      p[i + 1] = -p[i];
      s[i + 1] = s[i];
      p[i + 3] = p[i + 2];
      s[i + 3] = s[i + 2];
    }
    p[3] = ec::G1Affine::identity();
    s[4] = Fr::zero();
    s[5] = Fr::one();
    s[6] = -Fr::one();
    s[7] = Fr::from_u64(2);
    ec::G1Jacobian want = ec::G1Jacobian::identity();
    for (std::size_t i = 0; i < n; ++i) want = want + p[i].mul(s[i]);
    for (unsigned c : {4u, 11u})
      for (unsigned batch : {0u, 9u, 16u})
        for (unsigned threads : {1u, 2u}) {
          msm::HostOptions on{threads, c, msm::BucketMode::batch_affine, true, batch, true};
          msm::HostOptions off = on;
          off.simd = false;
          const auto got_on = msm::msm<msm::G1Curve>(p, s, on);
          const auto got_off = msm::msm<msm::G1Curve>(p, s, off);
          BOOST_REQUIRE_MESSAGE(got_on == want, "ifma n " << n << " c " << c << " batch " << batch);
          BOOST_REQUIRE_MESSAGE(got_off == want,
                                "scalar n " << n << " c " << c << " batch " << batch);
          // Bit-identical, not only the same group element: the Jacobian limbs agree.
          BOOST_REQUIRE(got_on.X == got_off.X && got_on.Y == got_off.Y && got_on.Z == got_off.Z);
        }
  }
}

// Few distinct points, small scalars: many additions meet a busy bucket (deferral, overflow),
// P + P and P + (-P) inside a batch; the automatic options (the prover's) too.
BOOST_AUTO_TEST_CASE(msm_ifma_deferral_and_defaults) {
  std::mt19937_64 rng(42);
  const auto base = ec::random_walk_points<ec::G1Affine, ec::G1Jacobian>(5, rng);
  const std::size_t n = 3000;
  std::vector<ec::G1Affine> p;
  std::vector<Fr> small, big;
  for (std::size_t i = 0; i < n; ++i) {
    const ec::G1Affine q = base[rng() % 5];
    p.push_back(rng() % 3 == 0 ? -q : q);
    small.push_back(Fr::from_u64(1 + rng() % 6));
    big.push_back(Fr::random(rng));
  }
  for (const auto* s : {&small, &big}) {
    ec::G1Jacobian want = ec::G1Jacobian::identity();
    for (std::size_t i = 0; i < n; ++i) want = want + p[i].mul((*s)[i]);
    for (unsigned c : {3u, 11u}) {
      const auto on =
          msm::msm<msm::G1Curve>(p, *s, {2, c, msm::BucketMode::batch_affine, true, 16, true});
      const auto off =
          msm::msm<msm::G1Curve>(p, *s, {2, c, msm::BucketMode::batch_affine, true, 16, false});
      BOOST_REQUIRE_MESSAGE(on == want, "ifma window " << c);
      BOOST_REQUIRE_MESSAGE(off == want, "scalar window " << c);
    }
    BOOST_REQUIRE(msm::msm_g1(p, *s, 2) == want);
  }
}

BOOST_AUTO_TEST_SUITE_END()
