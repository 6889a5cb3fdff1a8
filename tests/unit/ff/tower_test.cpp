// System: the extension tower Fq2 = Fq[u]/(u^2+1), Fq6 = Fq2[v]/(v^3-(u+1)), Fq12 = Fq6[w]/(w^2-v)
// (gpu/ff), host build. Expectation: each is a field with the defining relations (u^2 = -1,
// v^3 = u+1, w^2 = v); multiplication is associative, commutative and distributes over
// addition; squaring equals self-multiplication; x * x^-1 = 1; the Frobenius map equals the p-th
// power and has order 2 / 6 / 12; Fq2 square roots square back and exist exactly for squares.
// Tolerance: none (exact).
#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>
#include <random>

#include "gpu/ff/batch.hpp"
#include "gpu/ff/fq12.hpp"
#include "gpu/ff/fr.hpp"

using namespace prestage::ff;

namespace {

using Tower = boost::mpl::list<Fq2, Fq6, Fq12>;

template <class F>
int frobenius_order();
template <>
int frobenius_order<Fq2>() {
  return 2;
}
template <>
int frobenius_order<Fq6>() {
  return 6;
}
template <>
int frobenius_order<Fq12>() {
  return 12;
}

// x^p by square-and-multiply with p's limbs (independent of the Frobenius constants).
template <class F>
F pow_p(const F& x) {
  F r = F::one();
  for (std::size_t i = Fq::N; i-- > 0;)
    for (int bit = 63; bit >= 0; --bit) {
      r = r * r;
      if ((Fq::modulus[i] >> bit) & 1) r = r * x;
    }
  return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ff_tower)

BOOST_AUTO_TEST_CASE(defining_relations) {
  const Fq2 u{Fq::zero(), Fq::one()};
  BOOST_TEST((u * u == -Fq2::one()));
  const Fq6 v{Fq2::zero(), Fq2::one(), Fq2::zero()};
  BOOST_TEST((v * v * v == Fq6{Fq2::nonresidue(), Fq2::zero(), Fq2::zero()}));
  const Fq12 w{Fq6::zero(), Fq6::one()};
  BOOST_TEST((w * w == Fq12{v, Fq6::zero()}));
  // mul_by_nonresidue is multiplication by u + 1 (Fq2) and by v (Fq6).
  std::mt19937_64 rng(1);
  const Fq2 a = Fq2::random(rng);
  BOOST_TEST((a.mul_by_nonresidue() == a * Fq2::nonresidue()));
  const Fq6 b = Fq6::random(rng);
  BOOST_TEST((b.mul_by_nonresidue() == b * v));
  // xi = u + 1 is not a square in Fq2 (Fq12 = Fq6[w], w^2 = v, needs v non-square).
  BOOST_TEST(!Fq2::nonresidue().sqrt().has_value());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(field_axioms, F, Tower) {
  std::mt19937_64 rng(0x70E4 + sizeof(F));
  for (int i = 0; i < 30; ++i) {
    const F a = F::random(rng), b = F::random(rng), c = F::random(rng);
    BOOST_TEST_REQUIRE(((a * b) * c == a * (b * c)));
    BOOST_TEST_REQUIRE((a * b == b * a));
    BOOST_TEST_REQUIRE((a * (b + c) == a * b + a * c));
    BOOST_TEST_REQUIRE((a.sqr() == a * a));
    BOOST_TEST_REQUIRE(((a - b) + b == a));
    BOOST_TEST_REQUIRE((a + (-a)).is_zero());
    BOOST_TEST_REQUIRE((a * F::one() == a));
    BOOST_TEST_REQUIRE((a * a.inverse() == F::one()));
  }
  BOOST_TEST(F::zero().inverse().is_zero());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(frobenius_is_the_p_power, F, Tower) {
  std::mt19937_64 rng(0xF70B + sizeof(F));
  for (int i = 0; i < 3; ++i) {
    const F a = F::random(rng);
    const F ap = pow_p(a);
    BOOST_TEST_REQUIRE((a.frobenius_map(1) == ap));
    BOOST_TEST_REQUIRE((a.frobenius_map(2) == pow_p(ap)));
    BOOST_TEST_REQUIRE((a.frobenius_map(1).frobenius_map(1) == a.frobenius_map(2)));
    BOOST_TEST_REQUIRE((a.frobenius_map(frobenius_order<F>()) == a));
    BOOST_TEST_REQUIRE((a.frobenius_map(3) == a.frobenius_map(1).frobenius_map(2)));
  }
}

BOOST_AUTO_TEST_CASE(fq12_conjugate_is_p6_power) {
  std::mt19937_64 rng(0xC0);
  const Fq12 a = Fq12::random(rng);
  BOOST_TEST((a.conjugate() == a.frobenius_map(6)));
  // The norm to Fq6 of a * conj(a) has no w part.
  BOOST_TEST((a * a.conjugate()).c1.is_zero());
}

BOOST_AUTO_TEST_CASE(fq2_sqrt) {
  std::mt19937_64 rng(0x5427);
  int non_squares = 0;
  for (int i = 0; i < 40; ++i) {
    const Fq2 a = Fq2::random(rng);
    const auto s = a.sqr().sqrt();
    BOOST_TEST_REQUIRE(s.has_value());
    BOOST_TEST_REQUIRE((*s == a || *s == -a));
    const auto t = a.sqrt();
    // a is a square in Fq2 iff its norm is a square in Fq.
    BOOST_TEST_REQUIRE(t.has_value() == a.norm().is_square());
    if (t) BOOST_TEST_REQUIRE((t->sqr() == a));
    non_squares += !t.has_value();
  }
  BOOST_TEST(non_squares > 5);
  // Elements of Fq (c1 = 0) are all squares in Fq2, including the non-squares of Fq.
  const Fq2 minus_one = -Fq2::one();
  const auto i = minus_one.sqrt();
  BOOST_TEST_REQUIRE(i.has_value());
  BOOST_TEST((i->sqr() == minus_one));
  BOOST_TEST(Fq2::zero().sqrt().has_value());
}

BOOST_AUTO_TEST_CASE(batch_inverse_matches_single_inverses) {
  std::mt19937_64 rng(0xBA7);
  std::vector<Fr> v;
  for (int i = 0; i < 50; ++i) v.push_back(i % 7 == 3 ? Fr::zero() : Fr::random(rng));
  std::vector<Fr> w = v;
  batch_inverse<Fr>(w);
  for (std::size_t i = 0; i < v.size(); ++i) BOOST_TEST_REQUIRE((w[i] == v[i].inverse()));
  std::vector<Fq2> x{Fq2::random(rng), Fq2::zero(), Fq2::random(rng)};
  std::vector<Fq2> y = x;
  batch_inverse<Fq2>(y);
  for (std::size_t i = 0; i < x.size(); ++i) BOOST_TEST_REQUIRE((y[i] == x[i].inverse()));
  std::vector<Fr> empty;
  batch_inverse<Fr>(empty);
  BOOST_TEST(empty.empty());
}

BOOST_AUTO_TEST_SUITE_END()
