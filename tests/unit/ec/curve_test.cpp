// System: BLS12-381 G1 (over Fq) and G2 (over Fq2) in affine, Jacobian and XYZZ coordinates
// (gpu/ec), host build. Expectation: the standard generators lie on the curves and have order r;
// every coordinate system's add, mixed add and doubling give the same group element; scalar
// multiplication is a homomorphism ((a+b)G = aG + bG, (ab)G = a(bG)); exceptional inputs
// (P + P, P + (-P), identities) are handled; batch conversion to affine equals one-by-one
// conversion. Tolerance: none (exact).
#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>
#include <random>
#include <vector>

#include "gpu/ec/g1.hpp"
#include "gpu/ec/g2.hpp"

using namespace prestage;
using ff::Fq;
using ff::Fq2;
using ff::Fr;

namespace {

using Curves = boost::mpl::list<ec::G1Config, ec::G2Config>;

template <class C>
ec::Jacobian<C> random_point(std::mt19937_64& rng) {
  return ec::Jacobian<C>::generator().mul(Fr::random(rng));
}

// The same point with a different Z: (l^2 X, l^3 Y, l Z).
template <class C>
ec::Jacobian<C> rescale(const ec::Jacobian<C>& p, const typename C::Field& l) {
  const auto l2 = l.sqr();
  return {p.X * l2, p.Y * l2 * l, p.Z * l};
}

template <class F>
F random_field(std::mt19937_64& rng) {
  return F::random(rng);
}

// A point on the curve E (not necessarily in the order-r subgroup): x from a counter until
// x^3 + b is a square.
// x^3 + b is a square. k is advanced past the x used.
template <class C>
ec::Affine<C> some_curve_point(uint64_t& k) {
  using F = typename C::Field;
  for (;; ++k) {
    const F x = F::from_u64(k);
    const auto y = (x.sqr() * x + C::b()).sqrt();
    if (y) {
      ++k;
      return {x, *y, false};
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ff_curve)

BOOST_AUTO_TEST_CASE_TEMPLATE(generator_has_order_r, C, Curves) {
  const auto g = ec::Affine<C>::generator();
  BOOST_TEST(g.is_on_curve());
  BOOST_TEST(!g.is_identity());
  BOOST_TEST(g.in_subgroup_by_order());  // r * G = O
  BOOST_TEST(g.to_jacobian().mul_limbs(Fr::modulus.data(), Fr::modulus.size()).is_identity());
  BOOST_TEST(g.in_subgroup());
  // (r - 1) G = -G.
  const auto rm1 = ec::Jacobian<C>::generator().mul(-Fr::one());
  BOOST_TEST((rm1 == -g.to_jacobian()));
  BOOST_TEST((rm1 == ec::Affine<C>{g.x, -g.y, false}));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(coordinate_systems_agree, C, Curves) {
  std::mt19937_64 rng(0xC0DE + sizeof(typename C::Field));
  using J = ec::Jacobian<C>;
  using A = ec::Affine<C>;
  for (int i = 0; i < 40; ++i) {
    const J p = random_point<C>(rng);
    const J q = rescale(random_point<C>(rng), random_field<typename C::Field>(rng));
    const A qa = q.to_affine();
    BOOST_TEST_REQUIRE(p.is_on_curve());
    BOOST_TEST_REQUIRE(q.is_on_curve());
    BOOST_TEST_REQUIRE(qa.is_on_curve());
    BOOST_TEST_REQUIRE((q == qa));

    const J sum = p + q;
    BOOST_TEST_REQUIRE(sum.is_on_curve());
    BOOST_TEST_REQUIRE((p + qa == sum));                     // Jacobian mixed
    BOOST_TEST_REQUIRE((p.to_xyzz() + q.to_xyzz() == sum));  // XYZZ add
    BOOST_TEST_REQUIRE((p.to_xyzz() + qa == sum));           // XYZZ mixed
    BOOST_TEST_REQUIRE((p.to_xyzz() + q.to_xyzz()).is_on_curve());
    BOOST_TEST_REQUIRE(((p.to_xyzz() + qa).to_affine() == sum.to_affine()));
    BOOST_TEST_REQUIRE((q + p == sum));  // commutative

    const J d = p.dbl();
    BOOST_TEST_REQUIRE(d.is_on_curve());
    BOOST_TEST_REQUIRE((p.add(p) == d));  // add falls back to dbl
    BOOST_TEST_REQUIRE((p.to_xyzz().dbl() == d));
    BOOST_TEST_REQUIRE((ec::XYZZ<C>::dbl_affine(p.to_affine()) == d));
    BOOST_TEST_REQUIRE((p.to_xyzz().add_mixed(p.to_affine()) == d));  // madd falls back to mdbl
    BOOST_TEST_REQUIRE((p.add_mixed(p.to_affine()) == d));
    BOOST_TEST_REQUIRE((p.to_xyzz().to_jacobian() == p));
    BOOST_TEST_REQUIRE((p.to_xyzz() == p.to_affine()));

    // Associativity across representations.
    const J r = random_point<C>(rng);
    BOOST_TEST_REQUIRE(((p + q) + r == p + (q + r)));
    BOOST_TEST_REQUIRE((p - p).is_identity());
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(exceptional_cases, C, Curves) {
  std::mt19937_64 rng(0xE8C + sizeof(typename C::Field));
  using J = ec::Jacobian<C>;
  using A = ec::Affine<C>;
  using Z = ec::XYZZ<C>;
  const J p = random_point<C>(rng);
  const A pa = p.to_affine();
  const J o = J::identity();
  BOOST_TEST((p + (-p)).is_identity());
  BOOST_TEST((p + (-pa)).is_identity());
  BOOST_TEST((p.to_xyzz() + (-p).to_xyzz()).is_identity());
  BOOST_TEST((p.to_xyzz() + (-pa)).is_identity());
  BOOST_TEST((p + o == p));
  BOOST_TEST((o + p == p));
  BOOST_TEST((o + pa == p));
  BOOST_TEST((p + A::identity() == p));
  BOOST_TEST((o + o).is_identity());
  BOOST_TEST(o.dbl().is_identity());
  BOOST_TEST((Z::identity() + pa == p));
  BOOST_TEST((p.to_xyzz() + Z::identity() == p));
  BOOST_TEST(Z::identity().dbl().is_identity());
  BOOST_TEST(o.to_affine().is_identity());
  BOOST_TEST(Z::identity().to_affine().is_identity());
  BOOST_TEST((o != p));
  BOOST_TEST((pa != A::identity()));
  BOOST_TEST(o.is_on_curve());
  BOOST_TEST(p.mul(Fr::zero()).is_identity());
  BOOST_TEST((p.mul(Fr::one()) == p));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(scalar_multiplication_is_a_homomorphism, C, Curves) {
  std::mt19937_64 rng(0x5CA1 + sizeof(typename C::Field));
  using J = ec::Jacobian<C>;
  const J g = J::generator();
  for (int i = 0; i < 6; ++i) {
    const Fr a = Fr::random(rng), b = Fr::random(rng);
    const J ag = g.mul(a), bg = g.mul(b);
    BOOST_TEST_REQUIRE((g.mul(a + b) == ag + bg));
    BOOST_TEST_REQUIRE((g.mul(a * b) == ag.mul(b)));
    BOOST_TEST_REQUIRE((g.mul(-a) == -ag));
    BOOST_TEST_REQUIRE(ag.to_affine().in_subgroup());
  }
  // Small multiples by repeated addition.
  J acc = J::identity();
  for (uint64_t k = 0; k < 20; ++k) {
    BOOST_TEST_REQUIRE((g.mul(Fr::from_u64(k)) == acc));
    acc += g;
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(points_outside_the_subgroup_are_rejected, C, Curves) {
  // E has cofactor h > 1, so a point built from an arbitrary x is almost never in G.
  int outside = 0;
  uint64_t start = 1;
  for (int i = 0; i < 4; ++i) {
    const auto p = some_curve_point<C>(start);
    BOOST_TEST_REQUIRE(p.is_on_curve());
    outside += !p.in_subgroup();
  }
  BOOST_TEST(outside == 4);
  // Off-curve points are reported as such.
  auto g = ec::Affine<C>::generator();
  g.y += C::Field::one();
  BOOST_TEST(!g.is_on_curve());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(fast_subgroup_check_agrees_with_order, C, Curves) {
  // The endomorphism tests (G1: phi(P) = -x^2 P, G2: psi(Q) = x Q) against the definition
  // r * P = O, on curve points inside and outside the subgroup.
  std::mt19937_64 rng(0x5B6 + sizeof(typename C::Field));
  int inside = 0, outside = 0;
  uint64_t k = 3;
  for (int i = 0; i < 12; ++i) {
    const auto in = random_point<C>(rng).to_affine();
    BOOST_TEST_REQUIRE(in.in_subgroup());
    BOOST_TEST_REQUIRE(in.in_subgroup_by_order());
    const auto any = some_curve_point<C>(k);
    BOOST_TEST_REQUIRE(any.in_subgroup() == any.in_subgroup_by_order());
    inside += 1;
    outside += !any.in_subgroup_by_order();
  }
  BOOST_TEST(outside == 12);
  BOOST_TEST(inside == 12);
  BOOST_TEST(ec::Affine<C>::identity().in_subgroup());
}

BOOST_AUTO_TEST_CASE(g1_cofactor_cleared_points_pass_the_fast_check) {
  // h1 * P is in G1 for every P on E(Fq); h1 = 0x396c8c005555e1568c00aaab0000aaab.
  const std::array<uint64_t, 2> h1 = {0x8c00aaab0000aaabull, 0x396c8c005555e156ull};
  uint64_t k = 1;
  for (int i = 0; i < 6; ++i) {
    const auto p = some_curve_point<ec::G1Config>(k);
    const auto cleared = p.to_jacobian().mul_limbs(h1.data(), h1.size());
    BOOST_TEST_REQUIRE(cleared.in_subgroup());
    BOOST_TEST_REQUIRE(cleared.in_subgroup_by_order());
    BOOST_TEST_REQUIRE(!p.in_subgroup());
  }
}

BOOST_AUTO_TEST_CASE(psi_is_an_endomorphism_of_the_twist) {
  // psi maps twist points to twist points and is additive.
  std::mt19937_64 rng(0x951);
  using J = ec::G2Jacobian;
  uint64_t k = 5;
  const auto p = some_curve_point<ec::G2Config>(k).to_jacobian();  // not in G2
  const J q = random_point<ec::G2Config>(rng);
  BOOST_TEST(ec::G2Config::psi(p).is_on_curve());
  BOOST_TEST((ec::G2Config::psi(p + q) == ec::G2Config::psi(p) + ec::G2Config::psi(q)));
  BOOST_TEST((ec::G2Config::psi(q) == q.mul(Fr::from_u64(0xd201000000010000ull)).operator-()));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(batch_to_affine_matches_single, C, Curves) {
  std::mt19937_64 rng(0xBA7C + sizeof(typename C::Field));
  using J = ec::Jacobian<C>;
  std::vector<J> pts;
  for (int i = 0; i < 17; ++i) {
    pts.push_back(rescale(random_point<C>(rng), random_field<typename C::Field>(rng)));
    if (i % 5 == 0) pts.push_back(J::identity());
  }
  std::vector<ec::Affine<C>> out(pts.size());
  ec::batch_to_affine<C>(pts, out);
  for (std::size_t i = 0; i < pts.size(); ++i) {
    BOOST_TEST_REQUIRE((out[i] == pts[i].to_affine()));
    BOOST_TEST_REQUIRE(out[i].is_identity() == pts[i].is_identity());
  }
  std::vector<ec::Affine<C>> none;
  ec::batch_to_affine<C>(std::span<const J>{}, none);  // empty input is fine
  BOOST_TEST(none.empty());
}

BOOST_AUTO_TEST_SUITE_END()
