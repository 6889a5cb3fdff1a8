// System: ZCash-format encoding of G1/G2 points (gpu/ec/encoding.hpp), host build.
// Expectation: the generators encode to the published compressed strings; random points and the
// identity round-trip through both formats; non-canonical or invalid encodings (wrong length or
// flags, coordinate >= p, x off the curve, point outside the subgroup) are rejected.
// Tolerance: none (exact bytes).
#include <boost/test/unit_test.hpp>
#include <random>
#include <string>
#include <vector>

#include "gpu/ec/encoding.hpp"

using namespace prestage;
using ec::G1Affine;
using ec::G2Affine;
using ff::Fr;

namespace {

template <std::size_t N>
std::string hex(const std::array<uint8_t, N>& b) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (uint8_t v : b) {
    s.push_back(digits[v >> 4]);
    s.push_back(digits[v & 15]);
  }
  return s;
}

// The published compressed generators (ZCash BLS12-381 spec, IETF pairing-friendly-curves).
const std::string kG1GeneratorCompressed =
    "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6"
    "bb";
const std::string kG2GeneratorCompressed =
    "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b"
    "7e024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121"
    "bdb8";

}  // namespace

BOOST_AUTO_TEST_SUITE(ff_encoding)

BOOST_AUTO_TEST_CASE(generators_match_published_encodings) {
  BOOST_TEST(hex(ec::to_compressed(G1Affine::generator())) == kG1GeneratorCompressed);
  BOOST_TEST(hex(ec::to_compressed(G2Affine::generator())) == kG2GeneratorCompressed);
  // Identity: flags only.
  const auto o1 = ec::to_compressed(G1Affine::identity());
  BOOST_TEST(o1[0] == 0xC0);
  const auto o2 = ec::to_uncompressed(G2Affine::identity());
  BOOST_TEST(o2[0] == 0x40);
}

BOOST_AUTO_TEST_CASE(round_trips) {
  std::mt19937_64 rng(0xE4C);
  for (int i = 0; i < 8; ++i) {
    const G1Affine p = G1Affine::generator().mul(Fr::random(rng)).to_affine();
    const G2Affine q = G2Affine::generator().mul(Fr::random(rng)).to_affine();
    BOOST_TEST_REQUIRE((ec::g1_from_compressed(ec::to_compressed(p)) == p));
    BOOST_TEST_REQUIRE((ec::g1_from_uncompressed(ec::to_uncompressed(p)) == p));
    BOOST_TEST_REQUIRE((ec::g2_from_compressed(ec::to_compressed(q)) == q));
    BOOST_TEST_REQUIRE((ec::g2_from_uncompressed(ec::to_uncompressed(q)) == q));
    // -P differs from P only in the sign flag.
    auto a = ec::to_compressed(p), b = ec::to_compressed(-p);
    BOOST_TEST_REQUIRE((a[0] ^ b[0]) == 0x20);
  }
  BOOST_TEST(ec::g1_from_compressed(ec::to_compressed(G1Affine::identity()))->infinity);
  BOOST_TEST(ec::g2_from_uncompressed(ec::to_uncompressed(G2Affine::identity()))->infinity);
}

BOOST_AUTO_TEST_CASE(invalid_encodings_are_rejected) {
  const auto g = ec::to_compressed(G1Affine::generator());
  const auto gu = ec::to_uncompressed(G1Affine::generator());
  // Wrong length.
  BOOST_TEST(!ec::g1_from_compressed(std::span<const uint8_t>(g.data(), 47)).has_value());
  // Compressed bytes given to the uncompressed decoder and vice versa.
  BOOST_TEST(!ec::g1_from_uncompressed(std::span<const uint8_t>(g.data(), g.size())).has_value());
  auto c = g;
  c[0] &= 0x7F;  // clear the compression flag
  BOOST_TEST(!ec::g1_from_compressed(c).has_value());
  // Infinity flag with nonzero coordinates; infinity with the sign flag.
  c = g;
  c[0] |= 0x40;
  BOOST_TEST(!ec::g1_from_compressed(c).has_value());
  std::array<uint8_t, 48> inf{};
  inf[0] = 0xE0;
  BOOST_TEST(!ec::g1_from_compressed(inf).has_value());
  // Sign flag in the uncompressed format.
  auto u = gu;
  u[0] |= 0x20;
  BOOST_TEST(!ec::g1_from_uncompressed(u).has_value());
  // x >= p: all coordinate bits set.
  std::array<uint8_t, 48> big{};
  big.fill(0xFF);
  big[0] = 0x9F;
  BOOST_TEST(!ec::g1_from_compressed(big).has_value());
  // y changed: off the curve.
  u = gu;
  u[95] ^= 1;
  BOOST_TEST(!ec::g1_from_uncompressed(u).has_value());
  // x with no curve point: find one by incrementing the generator's x.
  int off_curve = 0;
  for (uint8_t k = 1; k < 40 && off_curve == 0; ++k) {
    c = g;
    c[47] = static_cast<uint8_t>(c[47] + k);
    if (!ec::g1_from_compressed(c)) ++off_curve;
  }
  BOOST_TEST(off_curve == 1);
  // On the curve but outside the order-r subgroup (cofactor > 1): (0, 2) is on E(Fq) since
  // 2^2 = 0^3 + 4, but not in G1.
  const G1Affine t{ff::Fq::zero(), ff::Fq::from_u64(2), false};
  BOOST_TEST(t.is_on_curve());
  BOOST_TEST(!t.in_subgroup());
  BOOST_TEST(!ec::g1_from_uncompressed(ec::to_uncompressed(t)).has_value());
  BOOST_TEST(!ec::g1_from_compressed(ec::to_compressed(t)).has_value());
  // G2: a twist point outside the subgroup.
  for (uint64_t k = 1;; ++k) {
    const ff::Fq2 x = ff::Fq2::from_u64(k);
    const auto y = (x.sqr() * x + ec::G2Config::b()).sqrt();
    if (!y) continue;
    const G2Affine s{x, *y, false};
    BOOST_TEST(!s.in_subgroup());
    BOOST_TEST(!ec::g2_from_compressed(ec::to_compressed(s)).has_value());
    BOOST_TEST(!ec::g2_from_uncompressed(ec::to_uncompressed(s)).has_value());
    break;
  }
}

BOOST_AUTO_TEST_SUITE_END()
