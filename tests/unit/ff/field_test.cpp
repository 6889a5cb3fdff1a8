// System: the prime fields Fr and Fq (gpu/ff), Montgomery form, host build.
// Expectation: every operation equals GMP's result modulo the same prime, exactly, on random
// inputs and on the edge values 0, 1, 2, p-1, p-2, (p-1)/2; byte and decimal round trips are exact
// and reject out-of-range input. Tolerance: none (exact integer arithmetic).
#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>
#include <random>
#include <vector>

#include "gpu/ec/pairing.hpp"
#include "gpu/ff/fq.hpp"
#include "gpu/ff/fr.hpp"
#include "tests/unit/ff/gmp_oracle.hpp"

using prestage::ff::Fq;
using prestage::ff::Fr;
using prestage::test::from_value;
using prestage::test::modulus_mpz;
using prestage::test::value;

namespace {

using Fields = boost::mpl::list<Fr, Fq>;
constexpr int kRandomCases = 2000;

template <class F>
std::vector<mpz_class> edge_values() {
  const mpz_class p = modulus_mpz<F>();
  return {0,
          1,
          2,
          p - 1,
          p - 2,
          (p - 1) / 2,
          (p + 1) / 2,
          mpz_class("18446744073709551615"),
          mpz_class("18446744073709551616")};
}

// Random canonical values plus all edge values.
template <class F>
std::vector<mpz_class> sample_values(std::mt19937_64& rng, int n) {
  std::vector<mpz_class> v = edge_values<F>();
  for (int i = 0; i < n; ++i) v.push_back(value(F::random(rng)));
  return v;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ff_field)

BOOST_AUTO_TEST_CASE_TEMPLATE(derived_constants_match_gmp, F, Fields) {
  const mpz_class p = modulus_mpz<F>();
  const mpz_class two64 = mpz_class(1) << 64;
  const mpz_class R = mpz_class(1) << (64 * F::N);
  BOOST_TEST(prestage::test::to_mpz(F::R) == R % p);
  BOOST_TEST(prestage::test::to_mpz(F::R2) == (R * R) % p);
  // inv * p = -1 mod 2^64
  mpz_class check = (mpz_class(F::inv) * p + 1) % two64;
  BOOST_TEST(check == 0);
  BOOST_TEST(F::num_bits == mpz_sizeinbase(p.get_mpz_t(), 2));
  BOOST_TEST(mpz_probab_prime_p(p.get_mpz_t(), 30) > 0);
  // one() is R mod p in raw limbs and 1 canonically.
  BOOST_TEST(value(F::one()) == 1);
  BOOST_TEST(value(F::zero()) == 0);
  BOOST_TEST(value(F::from_u64(0xFFFFFFFFFFFFFFFFull)) == mpz_class("18446744073709551615"));
}

BOOST_AUTO_TEST_CASE(moduli_are_bls12_381) {
  // r = x^4 - x^2 + 1 and p = (x-1)^2 r / 3 + x for x = -0xd201000000010000.
  const mpz_class x = -mpz_class("0xd201000000010000");
  const mpz_class r = x * x * x * x - x * x + 1;
  const mpz_class p = (x - 1) * (x - 1) * r / 3 + x;
  BOOST_TEST(modulus_mpz<Fr>() == r);
  BOOST_TEST(modulus_mpz<Fq>() == p);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(ring_operations_match_gmp, F, Fields) {
  std::mt19937_64 rng(0xF1E1D + F::N);
  const mpz_class p = modulus_mpz<F>();
  const auto vals = sample_values<F>(rng, kRandomCases);
  const auto edges = edge_values<F>();
  std::size_t checked = 0;
  auto check_pair = [&](const mpz_class& x, const mpz_class& y) {
    const F a = from_value<F>(x), b = from_value<F>(y);
    mpz_class s = (x + y) % p, d = ((x - y) % p + p) % p, m = (x * y) % p;
    BOOST_TEST_REQUIRE(value(a + b) == s);
    BOOST_TEST_REQUIRE(value(a - b) == d);
    BOOST_TEST_REQUIRE(value(a * b) == m);
    F c = a;
    c += b;
    BOOST_TEST_REQUIRE(value(c) == s);
    c = a;
    c -= b;
    BOOST_TEST_REQUIRE(value(c) == d);
    c = a;
    c *= b;
    BOOST_TEST_REQUIRE(value(c) == m);
    BOOST_TEST_REQUIRE(((a == b) == (x == y)));
    BOOST_TEST_REQUIRE(((a != b) == (x != y)));
    ++checked;
  };
  // Edge values against each other and against random values; random pairs.
  for (const auto& e : edges)
    for (const auto& v : vals) {
      check_pair(e, v);
      check_pair(v, e);
    }
  for (std::size_t i = 0; i + 1 < vals.size(); ++i) check_pair(vals[i], vals[i + 1]);
  BOOST_TEST(checked > 2 * kRandomCases);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(unary_operations_match_gmp, F, Fields) {
  std::mt19937_64 rng(0xA11CE + F::N);
  const mpz_class p = modulus_mpz<F>();
  for (const auto& x : sample_values<F>(rng, kRandomCases)) {
    const F a = from_value<F>(x);
    BOOST_TEST_REQUIRE(value(-a) == (p - x) % p);
    BOOST_TEST_REQUIRE(value(a.sqr()) == (x * x) % p);
    BOOST_TEST_REQUIRE(value(a.dbl()) == (2 * x) % p);
    BOOST_TEST_REQUIRE(a.is_zero() == (x == 0));
    BOOST_TEST_REQUIRE(F::from_canonical(a.to_canonical()) == a);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(inverse_and_pow_match_gmp, F, Fields) {
  std::mt19937_64 rng(0xB0B + F::N);
  const mpz_class p = modulus_mpz<F>();
  const auto vals = sample_values<F>(rng, 200);  // inversion is ~num_bits multiplications
  for (const auto& x : vals) {
    const F a = from_value<F>(x);
    mpz_class inv = 0;
    if (x != 0) mpz_invert(inv.get_mpz_t(), x.get_mpz_t(), p.get_mpz_t());
    BOOST_TEST_REQUIRE(value(a.inverse()) == inv);  // zero -> zero
    // Small exponent, full-width exponent, and exponent 0.
    const uint64_t e64 = rng();
    mpz_class r;
    mpz_powm(r.get_mpz_t(), x.get_mpz_t(), mpz_class(e64).get_mpz_t(), p.get_mpz_t());
    BOOST_TEST_REQUIRE(value(a.pow(e64)) == r);
    std::array<uint64_t, 3> ebig{rng(), rng(), rng()};
    const mpz_class eb = prestage::test::to_mpz(ebig);
    mpz_powm(r.get_mpz_t(), x.get_mpz_t(), eb.get_mpz_t(), p.get_mpz_t());
    BOOST_TEST_REQUIRE(value(a.pow(std::span<const uint64_t>(ebig))) == r);
    BOOST_TEST_REQUIRE(value(a.pow(uint64_t{0})) == 1);
    BOOST_TEST_REQUIRE(a.is_square() ==
                       (x == 0 || mpz_legendre(x.get_mpz_t(), p.get_mpz_t()) == 1));
  }
}

BOOST_AUTO_TEST_CASE(fq_sqrt_matches_gmp_residuosity) {
  std::mt19937_64 rng(0x5157);
  const mpz_class p = modulus_mpz<Fq>();
  int squares = 0, non_squares = 0;
  for (const auto& x : sample_values<Fq>(rng, 300)) {
    const Fq a = from_value<Fq>(x);
    const auto s = a.sqrt();
    const bool residue = x == 0 || mpz_legendre(x.get_mpz_t(), p.get_mpz_t()) == 1;
    BOOST_TEST_REQUIRE(s.has_value() == residue);
    if (s) {
      BOOST_TEST_REQUIRE(s->sqr() == a);
      ++squares;
    } else {
      ++non_squares;
    }
    // The square of anything has a root that squares back.
    const auto t = a.sqr().sqrt();
    BOOST_TEST_REQUIRE(t.has_value());
    BOOST_TEST_REQUIRE((*t == a || *t == -a));
    // Sign: largest iff canonical value > (p-1)/2.
    BOOST_TEST_REQUIRE(a.lexicographically_largest() == (x > (p - 1) / 2));
  }
  BOOST_TEST(squares > 100);
  BOOST_TEST(non_squares > 100);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(byte_encodings_round_trip, F, Fields) {
  std::mt19937_64 rng(0xB17E + F::N);
  const mpz_class p = modulus_mpz<F>();
  const mpz_class R = mpz_class(1) << (64 * F::N);
  for (const auto& x : sample_values<F>(rng, 200)) {
    const F a = from_value<F>(x);
    const auto bytes = a.to_bytes_le();
    static_assert(bytes.size() == F::num_bytes);
    // Little-endian canonical: byte i is bits 8i..8i+7 of the value.
    mpz_class rebuilt = 0;
    for (std::size_t i = bytes.size(); i-- > 0;) rebuilt = (rebuilt << 8) + bytes[i];
    BOOST_TEST_REQUIRE(rebuilt == x);
    BOOST_TEST_REQUIRE(*F::from_bytes_le(bytes) == a);
    // Montgomery bytes hold x*R mod p.
    const auto mb = a.to_montgomery_bytes_le();
    mpz_class mont = 0;
    for (std::size_t i = mb.size(); i-- > 0;) mont = (mont << 8) + mb[i];
    BOOST_TEST_REQUIRE(mont == (x * R) % p);
    BOOST_TEST_REQUIRE(*F::from_montgomery_bytes_le(mb) == a);
    // Decimal.
    BOOST_TEST_REQUIRE(a.to_decimal() == x.get_str(10));
    BOOST_TEST_REQUIRE(*F::from_decimal(x.get_str(10)) == a);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(decoders_reject_out_of_range, F, Fields) {
  const mpz_class p = modulus_mpz<F>();
  auto le_bytes = [](const mpz_class& z) {
    std::vector<uint8_t> b(F::num_bytes, 0);
    mpz_class t = z;
    for (auto& byte : b) {
      byte = static_cast<uint8_t>(mpz_class(t & 0xFF).get_ui());
      t >>= 8;
    }
    return b;
  };
  const std::vector<mpz_class> bads{p, p + 1, (mpz_class(1) << (64 * F::N)) - 1};
  for (const mpz_class& bad : bads) {
    const auto b = le_bytes(bad);
    BOOST_TEST(!F::from_bytes_le(b).has_value());
    BOOST_TEST(!F::from_montgomery_bytes_le(b).has_value());
    BOOST_TEST(!F::from_canonical_checked(prestage::test::from_mpz<F::N>(bad)).has_value());
    BOOST_TEST(!F::from_decimal(bad.get_str(10)).has_value());
  }
  const auto ok = le_bytes(p - 1);
  BOOST_TEST(F::from_bytes_le(ok).has_value());
  // Wrong sizes.
  std::vector<uint8_t> short_buf(F::num_bytes - 1, 0), long_buf(F::num_bytes + 1, 0);
  BOOST_TEST(!F::from_bytes_le(short_buf).has_value());
  BOOST_TEST(!F::from_bytes_le(long_buf).has_value());
  BOOST_TEST(!F::from_montgomery_bytes_le(short_buf).has_value());
  // Malformed decimal.
  BOOST_TEST(!F::from_decimal("").has_value());
  BOOST_TEST(!F::from_decimal("12a").has_value());
  BOOST_TEST(!F::from_decimal("-1").has_value());
  BOOST_TEST(!F::from_decimal(std::string(200, '9')).has_value());
  BOOST_TEST(F::from_decimal("0").value().is_zero());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(random_is_reduced_and_varies, F, Fields) {
  std::mt19937_64 rng(7);
  const mpz_class p = modulus_mpz<F>();
  const mpz_class half = p / 2;
  int above_half = 0;
  constexpr int n = 4000;
  for (int i = 0; i < n; ++i) {
    const mpz_class v = value(F::random(rng));
    BOOST_TEST_REQUIRE(v < p);
    above_half += v > half;
  }
  // Uniform on [0, p): about half above p/2 (binomial sd ~32 for n = 4000; 6 sd bound).
  BOOST_TEST(std::abs(above_half - n / 2) < 200);
}

BOOST_AUTO_TEST_CASE(final_exponent_constant_matches_gmp) {
  // kFinalExpHardPart3 * r == 3 (p^4 - p^2 + 1), and the x-chain identity it is computed by.
  const mpz_class p = modulus_mpz<Fq>(), r = modulus_mpz<Fr>();
  const mpz_class d = prestage::test::to_mpz(prestage::ec::kFinalExpHardPart3);
  const mpz_class p2 = p * p;
  BOOST_TEST(d * r == 3 * (p2 * p2 - p2 + 1));
  const mpz_class x = -mpz_class("0xd201000000010000");
  BOOST_TEST(d == (x - 1) * (x - 1) * (x + p) * (x * x + p2 - 1) + 3);
  BOOST_TEST(prestage::ec::kBlsX == 0xd201000000010000ull);
}

BOOST_AUTO_TEST_CASE(portable_multiply_matches_int128) {
  // mac_portable (the device pass's constant-evaluation path) equals the host mac.
  std::mt19937_64 rng(0x3AC);
  for (int i = 0; i < 10000; ++i) {
    uint64_t a = rng(), b = rng(), c = rng(), k1 = rng(), k2 = k1;
    if (i < 4) b = c = ~uint64_t{0}, a = k1 = k2 = ~uint64_t{0};  // extreme: no overflow
    const uint64_t lo1 = prestage::ff::detail::mac(a, b, c, k1);
    const uint64_t lo2 = prestage::ff::detail::mac_portable(a, b, c, k2);
    BOOST_TEST_REQUIRE(lo1 == lo2);
    BOOST_TEST_REQUIRE(k1 == k2);
  }
}

BOOST_AUTO_TEST_SUITE_END()
