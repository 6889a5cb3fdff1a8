// System: the 32-bit-word Montgomery products of gpu/ff/mont32.hpp (even/odd CIOS, separated
// operand scanning, dedicated squaring, Fq2 Karatsuba / lazy-reduction products and squaring),
// compiled for the host where a variable stands in for the device's carry flag.
// Expectation: each equals Fp::operator* (Fr, Fq; the 32-bit add/sub equal Fp's + and -) or
// Fq2::operator* bit for bit, on 1e5 random pairs per field and on every pair of edge values (0, 1,
// 2, p - 1, p - 2, R mod p, R^2 mod p, raw 1, and unreduced sums for the wide product). Tolerance:
// none (exact).
#include <boost/test/unit_test.hpp>
#include <random>
#include <vector>

#include "gpu/ff/fq2.hpp"
#include "gpu/ff/fr.hpp"
#include "gpu/ff/mont32_candidates.hpp"
#include "tests/unit/ff/mont32_edges.hpp"

using namespace prestage::ff;
namespace w32 = prestage::ff::detail::w32;

namespace {

template <class F>
std::vector<F> edges() {
  return test::edge_values<F>();
}

uint64_t seed() {
  std::random_device rd;
  const uint64_t s = (uint64_t{rd()} << 32) ^ rd();
  BOOST_TEST_MESSAGE("seed " << s);
  return s;
}

template <class F>
void check_field(std::mt19937_64& rng, int n) {
  std::size_t bad_eo = 0, bad_sos = 0, bad_sqr = 0, bad_add = 0, count = 0;
  auto one = [&](const F& a, const F& b) {
    const F want = a * b;
    bad_eo += !(w32::fp_mul_eo(a, b) == want);
    bad_sos += !(w32::fp_mul_sos(a, b) == want);
    bad_sqr += !(w32::fp_sqr_sos(a) == a * a);
    bad_add += !(w32::fp_add(a, b) == a + b) + !(w32::fp_sub(a, b) == a - b);
    ++count;
  };
  const auto e = edges<F>();
  for (const F& a : e)
    for (const F& b : e) one(a, b);
  for (int i = 0; i < n; ++i) one(F::random(rng), F::random(rng));
  BOOST_TEST(bad_eo == 0u, "mul_eo: " << bad_eo << " of " << count << " differ");
  BOOST_TEST(bad_sos == 0u, "mul_sos: " << bad_sos << " of " << count << " differ");
  BOOST_TEST(bad_sqr == 0u, "sqr_sos: " << bad_sqr << " of " << count << " differ");
  BOOST_TEST(bad_add == 0u, "add/sub: " << bad_add << " of " << count << " differ");
}

}  // namespace

BOOST_AUTO_TEST_CASE(fr_products_match_fp_operator) {
  std::mt19937_64 rng(seed());
  check_field<Fr>(rng, 100000);
}

BOOST_AUTO_TEST_CASE(fq_products_match_fp_operator) {
  std::mt19937_64 rng(seed());
  check_field<Fq>(rng, 100000);
}

// System: the Montgomery factor the device products use (mont_inv: read from constant memory when
// it is 2^32 - 1, so ptxas cannot specialise it). Expectation: it equals -p^-1 mod 2^32 exactly
// (p * inv = -1 mod 2^32), and Fr is the field that takes the constant-memory path (p[0] = 1).
BOOST_AUTO_TEST_CASE(montgomery_factor_is_minus_p_inverse) {
  BOOST_TEST(w32::mont_inv<Fr>() == w32::Consts<Fr>::inv);
  BOOST_TEST(w32::mont_inv<Fq>() == w32::Consts<Fq>::inv);
  BOOST_TEST(w32::Consts<Fr>::inv == 0xFFFFFFFFu);
  BOOST_TEST(w32::Consts<Fq>::inv != 0xFFFFFFFFu);
  BOOST_TEST(static_cast<uint32_t>(w32::Consts<Fr>().p[0] * w32::Consts<Fr>::inv) == 0xFFFFFFFFu);
  BOOST_TEST(static_cast<uint32_t>(w32::Consts<Fq>().p[0] * w32::Consts<Fq>::inv) == 0xFFFFFFFFu);
}

// The wide product is also used on unreduced sums (a0 + a1 < 2p): check it against the
// reduction of a known product, (a + b)(c + d) = ac + ad + bc + bd in Fq.
BOOST_AUTO_TEST_CASE(wide_product_of_unreduced_sums) {
  std::mt19937_64 rng(seed());
  constexpr int W = 12;
  const w32::Consts<Fq> k;
  std::size_t bad = 0;
  const auto e = edges<Fq>();
  for (int i = 0; i < 20000; ++i) {
    const Fq a = i < 81 ? e[i % 9] : Fq::random(rng), b = i < 81 ? e[i / 9] : Fq::random(rng);
    const Fq c = Fq::random(rng), d = i < 81 ? e[(i + 3) % 9] : Fq::random(rng);
    uint32_t xa[W], xb[W], xc[W], xd[W], s1[W], s2[W], t[2 * W], r[W];
    w32::to_words<6>(xa, a.limb);
    w32::to_words<6>(xb, b.limb);
    w32::to_words<6>(xc, c.limb);
    w32::to_words<6>(xd, d.limb);
    w32::add_words<W>(s1, xa, xb);
    w32::add_words<W>(s2, xc, xd);
    w32::mul_wide<W>(t, s1, s2);
    w32::redc_wide<W>(r, t, k.p, w32::Consts<Fq>::inv);
    Fq got;
    w32::from_words<6>(got.limb, r);
    bad += !(got == a * c + a * d + b * c + b * d);
  }
  BOOST_TEST(bad == 0u, bad << " of 20000 differ");
}

BOOST_AUTO_TEST_CASE(fq2_products_match_fq2_operator) {
  std::mt19937_64 rng(seed());
  const auto e = edges<Fq>();
  std::vector<Fq2> xs;
  for (const Fq& a : e)
    for (const Fq& b : e) xs.push_back({a, b});
  std::size_t bad = 0, count = 0;
  auto one = [&](const Fq2& a, const Fq2& b) {
    Fq2 got;
    w32::fp2_mul_lazy(got.c0, got.c1, a.c0, a.c1, b.c0, b.c1);
    bad += !(got == a * b);
    bad += !(candidates::fq2_mul_eo::apply(a, b) == a * b);
    bad += !(candidates::fq2_sqr_eo::apply(a, b) == a.sqr());
    ++count;
  };
  for (std::size_t i = 0; i < xs.size(); ++i) one(xs[i], xs[(i * 7 + 5) % xs.size()]);
  for (int i = 0; i < 100000; ++i) one(Fq2::random(rng), Fq2::random(rng));
  BOOST_TEST(bad == 0u, bad << " of " << count << " differ");
}

namespace {

// b mod p for any b < 2^(64N) (repeated subtraction: 2^(64N) < 10p for Fr and Fq).
template <class F>
F reduce_any(typename F::Limbs b) {
  while (detail::geq(b, F::modulus)) b = detail::sub_arr(b, F::modulus);
  return F::from_raw(b);
}

template <class F>
void check_lazy(std::mt19937_64& rng, int n) {
  using Limbs = typename F::Limbs;
  Limbs two_p{};  // 2p < 2^(64N)
  uint64_t carry = 0;
  for (std::size_t i = 0; i < F::N; ++i)
    two_p[i] = detail::adc(F::modulus[i], F::modulus[i], carry);
  std::size_t bad_mul = 0, bad_sub = 0, bad_bfly = 0, count = 0;
  auto one = [&](const F& a, const F& x, const F& w) {
    // The product with b = x + p (in [p, 2p)) and b = 2^(64N) - 1 - x (the top of the range).
    Limbs b0{}, b1{}, b2{};
    uint64_t c = 0, br = 0;
    for (std::size_t i = 0; i < F::N; ++i) b0[i] = x.limb[i];
    for (std::size_t i = 0; i < F::N; ++i) b1[i] = detail::adc(x.limb[i], F::modulus[i], c);
    for (std::size_t i = 0; i < F::N; ++i) b2[i] = detail::sbb(~uint64_t{0}, x.limb[i], br);
    for (const Limbs& b : {b0, b1, b2}) {
      F braw;
      for (std::size_t i = 0; i < F::N; ++i) braw.limb[i] = b[i];
      bad_mul += !(w32::fp_mul_eo_wide_b(a, braw) == a * reduce_any<F>(b));
    }
    // a - x + p: in [1, 2p), congruent to a - x; then the DIF butterfly's (a - x) w.
    const F d = w32::fp_sub_unreduced(a, x);
    Limbs dl{};
    for (std::size_t i = 0; i < F::N; ++i) dl[i] = d.limb[i];
    const bool in_range = !detail::geq(dl, two_p) && dl != Limbs{};
    bad_sub += !(in_range && reduce_any<F>(dl) == a - x);
    bad_bfly += !(w32::fp_mul_eo_wide_b(w, d) == (a - x) * w);
    ++count;
  };
  const auto e = edges<F>();
  for (const F& a : e)
    for (const F& x : e)
      for (const F& w : e) one(a, x, w);
  for (int i = 0; i < n; ++i) one(F::random(rng), F::random(rng), F::random(rng));
  BOOST_TEST(bad_mul == 0u, "mul_eo_wide_b: " << bad_mul << " of " << 3 * count << " differ");
  BOOST_TEST(bad_sub == 0u, "sub_unreduced: " << bad_sub << " of " << count << " wrong");
  BOOST_TEST(bad_bfly == 0u, "(a - b + p) w: " << bad_bfly << " of " << count << " differ");
}

}  // namespace

// System: the lazy-reduction forms (fp_sub_unreduced: a - b + p without its correction;
// fp_mul_eo_wide_b: the even/odd CIOS with an unreduced second operand), host-emulated.
// Expectation: the product equals Fp::operator* on the reduced operand for b in [p, 2p), at the
// top of the word range (2^(32W) - 1 - x) and below p; the difference lies in [1, 2p) and is
// congruent to a - b; their composition (the DIF butterfly's lower output) equals (a - b) * w; on
// all triples of edge values (0, 1, 2, p - 1, p - 2, raw 1, raw p - 1, R^2 mod p ...) and 3e4
// random ones (seed printed). Tolerance: none (exact).
BOOST_AUTO_TEST_CASE(lazy_difference_and_wide_product) {
  std::mt19937_64 rng(seed());
  check_lazy<Fr>(rng, 30000);
  check_lazy<Fq>(rng, 10000);
}
