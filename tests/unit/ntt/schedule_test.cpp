// System: gpu_ntt.cu's transform() schedule emulated on the host with the kernels' own phase
// functions (gpu/ntt/ntt_pass.hpp), for all four transforms as it runs them: DIF passes with w
// (forward) or w^-1 (inverse), 1/n by ntt::pass::mul_pow2_inv on the first pass's loads, g^i on
// the first pass's loads, n^-1 g^-i on the last pass's stores at the output index rev(g), and the
// bit reversal fused into the last pass (a) through a scratch buffer and (b) in place, as
// mirror_pass_kernel runs it: tickets in mirror_order(), and for each pair of sets {m, rev m}
// every tile of the pair loaded before any of them is stored, reading and writing the one array.
// A wrong tile map or a set that writes outside its pair shows up as a mismatch, since later
// tiles would then read overwritten elements. Kernel parameters as the default tuning (1:2:3).
// Expectation: equal to the host reference NTT (gpu/ntt/host_ntt.hpp) element for element at
// 2^12 (two passes of 6, mbits 0), 2^13 (7 + 6, mbits 1), 2^15 (8 + 7) and 2^21 (three passes
// of 7, mbits 7; there also the coset transforms with split factors, CosetTables::Split: one
// table read on the first pass's loads or the last pass's stores, the rest on the middle pass's
// twiddle, ntt::pass::coset_split_tables). Tolerance: none. Inputs: fresh random Fr (seed printed).
#include <boost/test/unit_test.hpp>

#include <random>
#include <utility>
#include <vector>

#include "gpu/ntt/domain.hpp"
#include "gpu/ntt/host_ntt.hpp"
#include "gpu/ntt/ntt_pass.hpp"
#include "tests/support/test_seed.hpp"

namespace {

using prestage::ff::Fr;
namespace np = prestage::ntt::pass;
namespace ntt = prestage::ntt;
constexpr int kR = 1, kL = 2, kB = 3;  // gpu_ntt.cu's default tuning (radix:low:blocks)

// lo[i] = first x^i (i < 2^11), hi[i] = x^(i 2^11): DeviceCosetShift's tables.
struct Tables {
  std::vector<Fr> lo, hi;
};
Tables powers(const Fr& first, const Fr& x, std::size_t n) {
  Tables t;
  Fr acc = first;
  for (int i = 0; i < (1 << np::kCoefLoBits); ++i, acc = acc * x) t.lo.push_back(acc);
  Fr step = x;
  for (unsigned i = 0; i < np::kCoefLoBits; ++i) step = step * step;
  acc = Fr::one();
  for (std::size_t i = 0; i < std::max<std::size_t>(1, n >> np::kCoefLoBits); ++i)
    t.hi.push_back(acc), acc = acc * step;
  return t;
}

// mirror_pass_kernel on the host: per pair of sets, all its tiles loaded (into per-tile
// buffers, stages run), then all stored, in place on v.
void mirror_pass(const np::Pass& p, std::vector<Fr>& v, const Fr* tw, bool inverse,
                 const np::Op& post) {
  const unsigned mbits = np::mirror_bits(p);
  const std::vector<uint32_t> order = np::mirror_order(mbits);
  const uint32_t per_set = 1u << np::mirror_set_log(p);
  const unsigned nt = p.threads(np::kPerThread<kR, kB>);
  std::vector<Fr> ws(std::size_t{1} << (p.k - 1));
  for (unsigned tid = 0; tid < nt; ++tid) np::load_roots(p, tw, inverse, ws.data(), tid, nt);
  for (std::size_t s = 0; s < order.size();) {
    const uint32_t m = order[s];
    const std::size_t sets = np::rev_bits(m, mbits) == m ? 1 : 2;  // the pair, adjacent
    std::vector<std::vector<Fr>> tiles;
    std::vector<uint64_t> blocks;
    for (uint32_t t = static_cast<uint32_t>(s * per_set); t < (s + sets) * per_set; ++t) {
      uint32_t mm = 0;
      blocks.push_back(np::mirror_tile(p, order.data(), t, &mm));
      tiles.emplace_back(p.tile_n());
      np::HostTile tile{tiles.back().data()};
      for (unsigned tid = 0; tid < nt; ++tid)
        np::load_tile<false, kR, np::HostTile, np::kRows, kB>(p, blocks.back(), v.data(), tw,
                                                              inverse, np::Op{}, tile, tid, nt);
      for (unsigned i = np::group_count(p, kR, kL); i-- > 0;)
        for (unsigned tid = 0; tid < nt; ++tid)
          np::run_group<false, kR, kL>(p, i, ws.data(), tile, tid, nt);
    }
    for (std::size_t i = 0; i < tiles.size(); ++i) {
      np::HostTile tile{tiles[i].data()};
      for (unsigned tid = 0; tid < nt; ++tid)
        np::store_tile<false, kR, np::HostTile, np::kRows, kB>(p, blocks[i], v.data(), tw, inverse,
                                                               post, tile, tid, nt);
    }
    s += sets;
  }
}

// transform() of gpu_ntt.cu: in place (mirror) or through a poisoned scratch buffer.
// mid_tw: the middle pass's Pass::tw_table of a three-pass plan (coset split tables), or null.
void transform(const ntt::Domain& d, std::vector<Fr>& v, bool in_place, bool inverse,
               const np::Op& pre, const np::Op& post, const Fr* mid_tw = nullptr,
               unsigned row_log = np::kColumnRowLog) {
  auto passes = np::plan(d.log_size(), row_log);
  const std::size_t m = passes.size();
  const Fr* tw = d.twiddles().data();
  if (mid_tw != nullptr) passes[1].tw_table = mid_tw;
  passes[m - 1] = np::fuse_reversal(passes[m - 1], false, np::kRevGroupLog);
  if (!in_place) {
    Fr poison;
    for (auto& l : poison.limb) l = ~uint64_t{0};
    std::vector<Fr> scratch(v.size(), poison);
    for (std::size_t i = 0; i < m; ++i) {
      const Fr* src = i > 0 ? scratch.data() : v.data();
      Fr* dst = i + 1 < m ? scratch.data() : v.data();
      np::emulate_pass<kR, kL, kB>(np::Kind::Dif, passes[i], src, dst, tw, inverse,
                                   i == 0 ? pre : np::Op{}, np::Op{}, i + 1 == m ? post : np::Op{});
    }
    return;
  }
  for (std::size_t i = 0; i + 1 < m; ++i)
    np::emulate_pass<kR, kL, kB>(np::Kind::Dif, passes[i], v.data(), tw, inverse,
                                 i == 0 ? pre : np::Op{}, np::Op{}, np::Op{});
  mirror_pass(passes[m - 1], v, tw, inverse, post);
}

}  // namespace

BOOST_AUTO_TEST_CASE(dif_schedules_in_place_and_with_scratch_match_host_reference) {
  const uint64_t seed = prestage::test::test_seed();
  BOOST_TEST_MESSAGE("seed " << seed);
  std::mt19937_64 rng(seed);
  for (unsigned log_n : {12u, 13u, 15u, 21u}) {
    ntt::Domain d(log_n);
    const std::size_t n = d.size();
    auto passes = np::plan(log_n);
    BOOST_TEST_REQUIRE((passes.size() >= 2 && log_n >= 2 * passes.back().k), "2^" << log_n);
    const Fr g = ntt::fr_roots().shift;
    const Tables fwd = powers(Fr::one(), g, n);
    const Tables inv = powers(d.size_inv(), g.inverse(), n);
    std::vector<Fr> in(n);
    for (auto& x : in) x = Fr::random(rng);
    // Three-pass plans: the coset factors split (gpu_ntt.cu's CosetTables::Split).
    const bool split = np::coset_split_applies(passes);
    const np::CosetSplit st =
        split ? np::coset_split_tables(passes, d.omega(), g, d.size_inv()) : np::CosetSplit{};
    for (int variant = 0; variant < (split ? 6 : 4); ++variant) {
      std::vector<Fr> ref = in;
      np::Op pre, post;
      const Fr* mid_tw = nullptr;
      const bool inverse = variant == 1 || variant == 3 || variant == 5;
      const char* what[] = {"forward",
                            "inverse",
                            "coset forward",
                            "coset inverse",
                            "coset forward split",
                            "coset inverse split"};
      if (variant == 0) ntt::forward(d, ref);
      if (variant == 1) ntt::inverse(d, ref), pre = np::Op::pow2_inverse(log_n);
      if (variant == 2)
        ntt::coset_forward(d, ref, g), pre = np::Op::table(fwd.lo.data(), fwd.hi.data());
      if (variant == 3)
        ntt::coset_inverse(d, ref, g), post = np::Op::table(inv.lo.data(), inv.hi.data(), true);
      if (variant == 4) {
        ntt::coset_forward(d, ref, g);
        pre = st.fwd_pre_op(st.fwd_pre.data());
        mid_tw = st.fwd_tw.data();
      }
      if (variant == 5) {
        ntt::coset_inverse(d, ref, g);
        post = st.inv_post_op(st.inv_post.data());
        mid_tw = st.inv_tw.data();
      }
      for (bool in_place : {true, false}) {
        std::vector<Fr> v = in;
        transform(d, v, in_place, inverse, pre, post, mid_tw);
        std::size_t bad = 0;
        while (bad < n && v[bad] == ref[bad]) ++bad;
        BOOST_TEST(bad == n, what[variant] << (in_place ? " in place" : " with scratch") << " 2^"
                                           << log_n << ": first mismatch at " << bad);
      }
    }
  }
}

// The split coset factors (CosetTables::Split) on three-pass plans of unequal passes, so that a
// table indexed with the wrong pass's stages shows: 2^16 with at most 4 stages a column pass
// (4 + 4 + 8, mbits 0) and 2^19 with 5 (5 + 5 + 9, mbits 1), in place and with scratch, shift
// ffjavascript's and the circom one (a 2n-th root of unity).
BOOST_AUTO_TEST_CASE(coset_split_factors_on_unequal_plans_match_host_reference) {
  const uint64_t seed = prestage::test::test_seed();
  BOOST_TEST_MESSAGE("seed " << seed);
  std::mt19937_64 rng(seed);
  for (auto [log_n, row_log] : {std::pair{16u, 4u}, std::pair{19u, 5u}}) {
    ntt::Domain d(log_n);
    const auto passes = np::plan(log_n, row_log);
    BOOST_TEST_REQUIRE(np::coset_split_applies(passes));
    BOOST_TEST_REQUIRE(passes[0].k != passes[2].k);
    std::vector<Fr> in(d.size());
    for (auto& x : in) x = Fr::random(rng);
    for (const Fr& g : {ntt::fr_roots().shift, d.circom_coset_shift()}) {
      const np::CosetSplit st = np::coset_split_tables(passes, d.omega(), g, d.size_inv());
      for (bool inverse : {false, true}) {
        std::vector<Fr> ref = in;
        if (inverse)
          ntt::coset_inverse(d, ref, g);
        else
          ntt::coset_forward(d, ref, g);
        for (bool in_place : {true, false}) {
          std::vector<Fr> v = in;
          if (inverse)
            transform(d, v, in_place, true, np::Op{}, st.inv_post_op(st.inv_post.data()),
                      st.inv_tw.data(), row_log);
          else
            transform(d, v, in_place, false, st.fwd_pre_op(st.fwd_pre.data()), np::Op{},
                      st.fwd_tw.data(), row_log);
          std::size_t bad = 0;
          while (bad < v.size() && v[bad] == ref[bad]) ++bad;
          BOOST_TEST(bad == v.size(), (inverse ? "coset inverse" : "coset forward")
                                          << " split " << (in_place ? "in place" : "with scratch")
                                          << " 2^" << log_n << ": first mismatch at " << bad);
        }
      }
    }
  }
}
