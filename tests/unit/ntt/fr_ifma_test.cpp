// System: Fr8 (gpu/ff/fr_ifma.hpp), eight Fr elements on AVX-512 IFMA lanes in Fr's own Montgomery
// domain. Expectation: mul, add, sub, permute and select, and the contiguous load/store, give
// the scalar Fr result bit for bit, lane for lane, on random values and on the edges 0, 1, -1,
// r - 2 and R mod r (the raw integer 1 as a Montgomery value). Tolerance: exact (limb equality).
// Skipped, visibly, on a CPU without AVX-512 IFMA.
#include <boost/test/unit_test.hpp>
#include <random>

#include "gpu/ff/fr_ifma.hpp"

using namespace prestage;
using ff::Fr;

#if PRESTAGE_FF_HOST_IFMA
namespace {
namespace vi = ff::ifma;

PRESTAGE_IFMA_TARGET void check_ops(const Fr a[8], const Fr b[8]) {
  const vi::Fr8 A = vi::load_contiguous(a), B = vi::load_contiguous(b);
  Fr o[8];
  auto same = [&](auto f) {
    bool ok = true;
    for (int l = 0; l < 8; ++l)
      for (int k = 0; k < 4; ++k) ok = ok && o[l].limb[k] == f(l).limb[k];
    return ok;
  };
  vi::store_contiguous(vi::mul(A, B), o);
  BOOST_TEST(same([&](int l) { return a[l] * b[l]; }));
  vi::store_contiguous(vi::add(A, B), o);
  BOOST_TEST(same([&](int l) { return a[l] + b[l]; }));
  vi::store_contiguous(vi::sub(A, B), o);
  BOOST_TEST(same([&](int l) { return a[l] - b[l]; }));
  vi::store_contiguous(vi::sub(B, A), o);
  BOOST_TEST(same([&](int l) { return b[l] - a[l]; }));
  vi::store_contiguous(vi::permute(A, _mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7)), o);
  BOOST_TEST(same([&](int l) { return a[7 - l]; }));
  vi::store_contiguous(vi::select(0x0F, A, B), o);
  BOOST_TEST(same([&](int l) { return l < 4 ? a[l] : b[l]; }));
  vi::Fr8Mem m;
  vi::store(A, m);
  vi::store_contiguous(vi::load(m), o);
  BOOST_TEST(same([&](int l) { return a[l]; }));
}
}  // namespace

BOOST_AUTO_TEST_CASE(fr8_matches_scalar_fr) {
  if (!vi::cpu_has_ifma()) {
    BOOST_TEST_MESSAGE("SKIP: this CPU has no AVX-512 IFMA");
    return;
  }
  std::mt19937_64 g(5);
  const Fr edges[5] = {Fr::zero(), Fr::one(), -Fr::one(), -Fr::from_u64(2),
                       Fr::from_raw({1, 0, 0, 0})};
  for (int round = 0; round < 200; ++round) {
    Fr a[8], b[8];
    for (int l = 0; l < 8; ++l) {
      a[l] = (round + l) % 7 < 5 && round < 40 ? edges[(round + l) % 5] : Fr::random(g);
      b[l] = (round * 3 + l) % 5 < 3 && round < 40 ? edges[(round * 3 + l) % 5] : Fr::random(g);
    }
    check_ops(a, b);
  }
}
#else
BOOST_AUTO_TEST_CASE(fr8_matches_scalar_fr) {
  BOOST_TEST_MESSAGE("SKIP: not an x86-64 g++/clang build: Fr8 not compiled");
}
#endif
