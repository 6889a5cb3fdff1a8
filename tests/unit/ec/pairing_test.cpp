// System: the BLS12-381 optimal ate pairing (gpu/ec/pairing.hpp), host build.
// Expectation: e(G1, G2) equals the published GT generator of zkcrypto/bls12_381 (the same
// convention as blst and snarkjs's wasmcurves); e is bilinear (e(aP, bQ) = e(P, Q)^(ab)),
// non-degenerate, lands in the order-r subgroup; e(-P, Q) e(P, Q) = 1; the multi-Miller loop
// equals the product of single loops; the fast final exponentiation equals the plain power.
// Tolerance: none (exact).
#include <boost/test/unit_test.hpp>
#include <random>
#include <utility>
#include <vector>

#include "gpu/ec/pairing.hpp"

using namespace prestage;
using ec::G1Affine;
using ec::G2Affine;
using ff::Fq;
using ff::Fq12;
using ff::Fr;

namespace {

using Pair = std::pair<G1Affine, G2Affine>;

G1Affine g1_mul(const Fr& k) {
  return G1Affine::generator().mul(k).to_affine();
}
G2Affine g2_mul(const Fr& k) {
  return G2Affine::generator().mul(k).to_affine();
}

// pairing(G1 generator, G2 generator) as raw Montgomery limbs (R = 2^384), coefficients in the
// order c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1: the Gt::generator() constant published in
// zkcrypto/bls12_381 (src/pairings.rs) and blstrs (src/gt.rs).
constexpr uint64_t kGtGenerator[12][6] = {
    {0x1972e433a01f85c5, 0x97d32b76fd772538, 0xc8ce546fc96bcdf9, 0xcef63e7366d40614,
     0xa611342781843780, 0x13f3448a3fc6d825},
    {0xd26331b02e9d6995, 0x9d68a482f7797e7d, 0x9c9b29248d39ea92, 0xf4801ca2e13107aa,
     0xa16c0732bdbcb066, 0x083ca4afba360478},
    {0x59e261db0916b641, 0x2716b6f4b23e960d, 0xc8e55b10a0bd9c45, 0x0bdb0bd99c4deda8,
     0x8cf89ebf57fdaac5, 0x12d6b7929e777a5e},
    {0x5fc85188b0e15f35, 0x34a06e3a8f096365, 0xdb3126a6e02ad62c, 0xfc6f5aa97d9a990b,
     0xa12f55f5eb89c210, 0x1723703a926f8889},
    {0x93588f2971828778, 0x43f65b8611ab7585, 0x3183aaf5ec279fdf, 0xfa73d7e18ac99df6,
     0x64e176a6a64c99b0, 0x179fa78c58388f1f},
    {0x672a0a11ca2aef12, 0x0d11b9b52aa3f16b, 0xa44412d0699d056e, 0xc01d0177221a5ba5,
     0x66e0cede6c735529, 0x05f5a71e9fddc339},
    {0xd30a88a1b062c679, 0x5ac56a5d35fc8304, 0xd0c834a6a81f290d, 0xcd5430c2da3707c7,
     0xf0c27ff780500af0, 0x09245da6e2d72eae},
    {0x9f2e0676791b5156, 0xe2d1c8234918fe13, 0x4c9e459f3c561bf4, 0xa3e85e53b9d3e3c1,
     0x820a121e21a70020, 0x15af618341c59acc},
    {0x7c95658c24993ab1, 0x73eb38721ca886b9, 0x5256d749477434bc, 0x8ba41902ea504a8b,
     0x04a3d3f80c86ce6d, 0x18a64a87fb686eaa},
    {0xbb83e71bb920cf26, 0x2a5277ac92a73945, 0xfc0ee59f94f046a0, 0x7158cdf3786058f7,
     0x7cc1061b82f945f6, 0x03f847aa9fdbe567},
    {0x8078dba56134e657, 0x1cd7ec9a43998a6e, 0xb1aa599a1a993766, 0xc9a0f62f0842ee44,
     0x8e159be3b605dffa, 0x0c86ba0d4af13fc2},
    {0xe80ff2a06a52ffb1, 0x7694ca48721a906c, 0x7583183e03b08514, 0xf567afdd40cee4e2,
     0x9a6d96d2e526a5fc, 0x197e9f49861f2242}};

Fq12 gt_generator() {
  Fq12 r{};
  Fq* coeff[12] = {&r.c0.c0.c0, &r.c0.c0.c1, &r.c0.c1.c0, &r.c0.c1.c1, &r.c0.c2.c0, &r.c0.c2.c1,
                   &r.c1.c0.c0, &r.c1.c0.c1, &r.c1.c1.c0, &r.c1.c1.c1, &r.c1.c2.c0, &r.c1.c2.c1};
  for (int i = 0; i < 12; ++i) {
    std::array<uint64_t, 6> limbs{};
    for (int j = 0; j < 6; ++j) limbs[j] = kGtGenerator[i][j];
    *coeff[i] = Fq::from_raw(limbs);
  }
  return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ff_pairing)

BOOST_AUTO_TEST_CASE(generator_pairing_matches_published_value) {
  const Fq12 e = ec::pairing(G1Affine::generator(), G2Affine::generator());
  BOOST_TEST((e == gt_generator()));
  BOOST_TEST(!e.is_one());                                             // non-degenerate
  BOOST_TEST(e.pow(std::span<const uint64_t>(Fr::modulus)).is_one());  // order r
}

BOOST_AUTO_TEST_CASE(bilinearity) {
  std::mt19937_64 rng(0xB111);
  const Fq12 e = ec::pairing(G1Affine::generator(), G2Affine::generator());
  for (int i = 0; i < 2; ++i) {
    const Fr a = Fr::random(rng), b = Fr::random(rng);
    const auto ab = (a * b).to_canonical();
    const Fq12 e_ab = ec::pairing(g1_mul(a), g2_mul(b));
    BOOST_TEST_REQUIRE((e_ab == e.pow(std::span<const uint64_t>(ab))));
    BOOST_TEST_REQUIRE((e_ab == ec::pairing(g1_mul(a * b), G2Affine::generator())));
    BOOST_TEST_REQUIRE((e_ab == ec::pairing(G1Affine::generator(), g2_mul(a * b))));
  }
  // Linearity in each argument: e(P1 + P2, Q) = e(P1, Q) e(P2, Q).
  const Fr a = Fr::random(rng), b = Fr::random(rng);
  const G2Affine q = g2_mul(Fr::random(rng));
  BOOST_TEST(
      (ec::pairing(g1_mul(a + b), q) == ec::pairing(g1_mul(a), q) * ec::pairing(g1_mul(b), q)));
}

BOOST_AUTO_TEST_CASE(inverse_and_identity) {
  std::mt19937_64 rng(0x1D);
  const G1Affine p = g1_mul(Fr::random(rng));
  const G2Affine q = g2_mul(Fr::random(rng));
  BOOST_TEST((ec::pairing(-p, q) * ec::pairing(p, q)).is_one());
  BOOST_TEST((ec::pairing(-p, q) == ec::pairing(p, -q)));
  BOOST_TEST((ec::pairing(-p, q) == ec::pairing(p, q).conjugate()));  // unitary
  BOOST_TEST(ec::pairing(G1Affine::identity(), q).is_one());
  BOOST_TEST(ec::pairing(p, G2Affine::identity()).is_one());
}

BOOST_AUTO_TEST_CASE(pairing_product_check) {
  std::mt19937_64 rng(0x9A1);
  const Fr a = Fr::random(rng), b = Fr::random(rng), c = Fr::random(rng);
  // e(aP, bQ) e(-abP, Q) = 1, and with a Groth16-like four-term shape.
  const std::vector<Pair> ok = {{g1_mul(a), g2_mul(b)}, {-g1_mul(a * b), G2Affine::generator()}};
  BOOST_TEST(ec::pairing_product_is_one(ok));
  const std::vector<Pair> four = {{g1_mul(a), g2_mul(b)},
                                  {-g1_mul(c), g2_mul(a * b * c.inverse())},
                                  {g1_mul(c), G2Affine::identity()},
                                  {G1Affine::identity(), g2_mul(c)}};
  BOOST_TEST(ec::pairing_product_is_one(four));
  // Perturbing any one input breaks it.
  std::vector<Pair> bad = ok;
  bad[1].first = -g1_mul(a * b + Fr::one());
  BOOST_TEST(!ec::pairing_product_is_one(bad));
  bad = ok;
  bad[0].second = g2_mul(b + Fr::one());
  BOOST_TEST(!ec::pairing_product_is_one(bad));
  BOOST_TEST(ec::pairing_product_is_one(std::span<const Pair>{}));  // empty product
  // Multi-Miller loop equals the product of single Miller loops (before final exponentiation,
  // up to factors the final exponentiation erases; compare after it).
  const std::vector<Pair> two = {{g1_mul(a), g2_mul(b)}, {g1_mul(c), g2_mul(a)}};
  const Fq12 multi = ec::final_exponentiation(ec::multi_miller_loop(two));
  const Fq12 prod =
      ec::pairing(two[0].first, two[0].second) * ec::pairing(two[1].first, two[1].second);
  BOOST_TEST((multi == prod));
  BOOST_TEST((ec::multi_miller_loop(two) == ec::miller_loop(two[0].first, two[0].second) *
                                                ec::miller_loop(two[1].first, two[1].second)));
}

BOOST_AUTO_TEST_CASE(miller_loop_steps) {
  // The sparse line product equals the dense product; the projective doubling and addition
  // steps move T exactly as the group law does.
  std::mt19937_64 rng(0x5EE);
  const Fq12 f = Fq12::random(rng);
  const ec::detail::Line l{ff::Fq2::random(rng), ff::Fq2::random(rng), ff::Fq2::random(rng)};
  const Fq12 dense{{l.c00, l.c01, ff::Fq2::zero()}, {ff::Fq2::zero(), l.c11, ff::Fq2::zero()}};
  BOOST_TEST((ec::detail::mul_by_line(f, l) == f * dense));

  const G1Affine p = g1_mul(Fr::random(rng));
  const auto q = ec::G2Jacobian::generator().mul(Fr::random(rng));
  const G2Affine qa = q.to_affine();
  const ff::Fq2 z = ff::Fq2::random(rng);  // any projective scale
  ec::detail::TwistPoint t{qa.x * z, qa.y * z, z};
  (void)ec::detail::double_step(t, p.x, p.y);
  const ff::Fq2 iz = t.Z.inverse();
  BOOST_TEST((G2Affine{t.X * iz, t.Y * iz, false} == q.dbl().to_affine()));
  const G2Affine r = ec::G2Jacobian::generator().mul(Fr::random(rng)).to_affine();
  (void)ec::detail::add_step(t, r, p.x, p.y);
  const ff::Fq2 iz2 = t.Z.inverse();
  BOOST_TEST((G2Affine{t.X * iz2, t.Y * iz2, false} == (q.dbl() + r).to_affine()));
}

BOOST_AUTO_TEST_CASE(fast_final_exponentiation_equals_plain_power) {
  std::mt19937_64 rng(0xFE);
  for (int i = 0; i < 3; ++i) {
    const Fq12 f = Fq12::random(rng);
    const Fq12 fast = ec::final_exponentiation(f);
    BOOST_TEST_REQUIRE((fast == ec::final_exponentiation_reference(f)));
    BOOST_TEST_REQUIRE(fast.pow(std::span<const uint64_t>(Fr::modulus)).is_one());
  }
}

BOOST_AUTO_TEST_SUITE_END()
