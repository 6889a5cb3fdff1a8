// System: the pass decomposition of the GPU Fr NTT (gpu/ntt/ntt_pass.hpp) run on the host by
// emulate_pass(), which calls the kernels' own phase functions block by block and thread by
// thread, with the host bit reversal standing in for the permutation kernel, and the schedules
// with the permutation fused into a pass (Pass::rev_out / rev_in: in place for one-pass plans,
// through a scratch buffer otherwise, as gpu_ntt.cu's forward_impl and inverse_impl run them,
// with 2^0 .. 2^3 sub-problems per tile in the reversal pass: fuse_reversal).
// Expectation: forward, inverse, coset forward/inverse (both schedules) and the fused H chain
// (DIF with w^-1, scale, DIT with w) equal the host reference NTT (gpu/ntt/host_ntt.hpp)
// element for element.
// Tolerance: none (exact field arithmetic). Inputs: fresh random Fr per run (seed printed;
// PRESTAGE_SEED replays).
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "gpu/ntt/domain.hpp"
#include "gpu/ntt/host_ntt.hpp"
#include "gpu/ntt/ntt_pass.hpp"

namespace {

using prestage::ff::Fr;
namespace np = prestage::ntt::pass;
namespace ntt = prestage::ntt;

uint64_t seed() {
  if (const char* v = std::getenv("PRESTAGE_SEED")) return std::stoull(v);
  std::random_device rd;
  return (uint64_t{rd()} << 32) ^ rd();
}

std::vector<Fr> random_vec(std::size_t n, std::mt19937_64& rng) {
  std::vector<Fr> v(n);
  for (auto& x : v) x = Fr::random(rng);
  return v;
}

void bit_reverse(std::vector<Fr>& v, unsigned log_n) {
  for (uint32_t i = 0; i < v.size(); ++i) {
    const uint32_t r = np::rev_bits(i, log_n);
    if (i < r) std::swap(v[i], v[r]);
  }
}

// Power tables as DeviceCosetShift builds them: lo[i] = first * x^i (i < 2^11),
// hi[i] = x^(i 2^11) (max(1, n >> 11) entries).
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
  for (std::size_t i = 0; i < std::max<std::size_t>(1, n >> np::kCoefLoBits); ++i, acc = acc * step)
    t.hi.push_back(acc);
  return t;
}

np::Op table_op(const Tables& t, int mode) {
  return np::Op::table(t.lo.data(), t.hi.data(), mode == np::Op::kTableRev);
}

std::size_t first_mismatch(const std::vector<Fr>& a, const std::vector<Fr>& b) {
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return i;
  return a.size();
}

// The GPU schedules of gpu_ntt.cu, with emulate_pass for the kernels.
template <int kRadix = np::kMaxRadixLog, int kLow = kRadix, int kBlocks = 2>
void dif_forward(const ntt::Domain& d, std::vector<Fr>& v, const np::Op& pre,
                 unsigned row_log = np::kColumnRowLog) {
  const auto passes = np::plan(d.log_size(), row_log);
  for (std::size_t i = 0; i < passes.size(); ++i)
    np::emulate_pass<kRadix, kLow, kBlocks>(np::Kind::Dif, passes[i], v.data(), d.twiddles().data(),
                                            false, i == 0 ? pre : np::Op{}, np::Op{}, np::Op{});
  bit_reverse(v, d.log_size());
}
template <int kRadix = np::kMaxRadixLog, int kLow = kRadix, int kBlocks = 2>
void dit_inverse(const ntt::Domain& d, std::vector<Fr>& v, const np::Op& post,
                 unsigned row_log = np::kColumnRowLog) {
  bit_reverse(v, d.log_size());
  const auto passes = np::plan(d.log_size(), row_log);
  for (std::size_t i = passes.size(); i-- > 0;)
    np::emulate_pass<kRadix, kLow, kBlocks>(np::Kind::Dit, passes[i], v.data(), d.twiddles().data(),
                                            true, np::Op{}, np::Op{}, i == 0 ? post : np::Op{});
}
// The fused schedules (gpu_ntt.cu forward_impl / inverse_impl with a scratch buffer, or one
// pass): the scratch starts poisoned (every limb all ones) so a read of an unwritten element
// shows up as a mismatch.
Fr poison() {
  Fr x;
  for (auto& l : x.limb) l = ~uint64_t{0};
  return x;
}
template <int kRadix = np::kMaxRadixLog, int kLow = kRadix, int kBlocks = 2>
void dif_forward_fused(const ntt::Domain& d, std::vector<Fr>& v, const np::Op& pre,
                       unsigned row_log = np::kColumnRowLog,
                       unsigned group_log = np::kRevGroupLog) {
  auto passes = np::plan(d.log_size(), row_log);
  const std::size_t m = passes.size();
  std::vector<Fr> scratch(m > 1 ? v.size() : 0, poison());
  passes[m - 1] = np::fuse_reversal(passes[m - 1], false, group_log);
  for (std::size_t i = 0; i < m; ++i) {
    const Fr* src = m > 1 && i > 0 ? scratch.data() : v.data();
    Fr* dst = m > 1 && i + 1 < m ? scratch.data() : v.data();
    np::emulate_pass<kRadix, kLow, kBlocks>(np::Kind::Dif, passes[i], src, dst, d.twiddles().data(),
                                            false, i == 0 ? pre : np::Op{}, np::Op{}, np::Op{});
  }
}
template <int kRadix = np::kMaxRadixLog, int kLow = kRadix, int kBlocks = 2>
void dit_inverse_fused(const ntt::Domain& d, std::vector<Fr>& v, const np::Op& post,
                       unsigned row_log = np::kColumnRowLog,
                       unsigned group_log = np::kGatherGroupLog) {
  auto passes = np::plan(d.log_size(), row_log);
  const std::size_t m = passes.size();
  std::vector<Fr> scratch(m > 1 ? v.size() : 0, poison());
  passes[m - 1] = np::fuse_reversal(passes[m - 1], true, group_log);
  for (std::size_t i = m; i-- > 0;) {
    const Fr* src = m > 1 && i + 1 < m ? scratch.data() : v.data();
    Fr* dst = m > 1 && i > 0 ? scratch.data() : v.data();
    np::emulate_pass<kRadix, kLow, kBlocks>(np::Kind::Dit, passes[i], src, dst, d.twiddles().data(),
                                            true, np::Op{}, np::Op{}, i == 0 ? post : np::Op{});
  }
}

template <int kRadix = np::kMaxRadixLog, int kLow = kRadix, int kBlocks = 2>
void interpolate_to_coset(const ntt::Domain& d, std::vector<Fr>& v, const Tables& ninv_g,
                          unsigned row_log = np::kColumnRowLog) {
  const auto passes = np::plan(d.log_size(), row_log);
  const Fr* tw = d.twiddles().data();
  const std::size_t last = passes.size() - 1;
  for (std::size_t i = 0; i < last; ++i)
    np::emulate_pass<kRadix, kLow, kBlocks>(np::Kind::Dif, passes[i], v.data(), tw, true, {}, {},
                                            {});
  np::emulate_pass<kRadix, kLow, kBlocks>(np::Kind::DifScaleDit, passes[last], v.data(), tw, false,
                                          {}, table_op(ninv_g, np::Op::kTableRev), {});
  for (std::size_t i = last; i-- > 0;)
    np::emulate_pass<kRadix, kLow, kBlocks>(np::Kind::Dit, passes[i], v.data(), tw, false, {}, {},
                                            {});
}

// The H chain with split tables (gpu_ntt.cu's ntt::interpolate_to_coset with
// CosetTables::Split): n^-1 g^i in the fused pass as one read (h_mid), the rest on the middle
// DIT pass's twiddle (h_tw); a plan of three passes. The default (1:2:2) units of the fused pass.
void interpolate_to_coset_split(const ntt::Domain& d, std::vector<Fr>& v, const Fr& g,
                                unsigned row_log) {
  auto passes = np::plan(d.log_size(), row_log);
  const np::CosetSplit st = np::coset_split_tables(passes, d.omega(), g, d.size_inv());
  const Fr* tw = d.twiddles().data();
  for (std::size_t i = 0; i < 2; ++i)
    np::emulate_pass<1, 2, 2>(np::Kind::Dif, passes[i], v.data(), tw, true, {}, {}, {});
  np::emulate_pass<1, 2, 2>(np::Kind::DifScaleDit, passes[2], v.data(), tw, false, {},
                            st.h_mid_op(st.h_mid.data()), {});
  passes[1].tw_table = st.h_tw.data();
  for (std::size_t i = 2; i-- > 0;)
    np::emulate_pass<1, 2, 2>(np::Kind::Dit, passes[i], v.data(), tw, false, {}, {}, {});
}

// Forward, inverse and the H chain of one (radix, low, blocks) tuning against the host reference.
template <int kRadix, int kLow, int kBlocks = 2>
void check_tuning(const ntt::Domain& d, const std::vector<Fr>& in, unsigned row_log) {
  const std::size_t n = d.size();
  const unsigned log_n = d.log_size();
  auto ref = in, got = in;
  ntt::forward(d, ref, 1);
  dif_forward<kRadix, kLow, kBlocks>(d, got, np::Op{}, row_log);
  BOOST_TEST(first_mismatch(got, ref) == n, "forward " << kRadix << ":" << kLow << ":" << kBlocks
                                                       << " row_log " << row_log << " 2^" << log_n);
  got = in;
  dif_forward_fused<kRadix, kLow, kBlocks>(d, got, np::Op{}, row_log);
  BOOST_TEST(first_mismatch(got, ref) == n, "forward fused " << kRadix << ":" << kLow << ":"
                                                             << kBlocks << " row_log " << row_log
                                                             << " 2^" << log_n);
  ref = in, got = in;
  ntt::inverse(d, ref, 1);
  const np::Op ninv = np::Op::constant(d.size_inv());
  dit_inverse<kRadix, kLow, kBlocks>(d, got, ninv, row_log);
  BOOST_TEST(first_mismatch(got, ref) == n, "inverse " << kRadix << ":" << kLow << ":" << kBlocks
                                                       << " row_log " << row_log << " 2^" << log_n);
  got = in;
  dit_inverse_fused<kRadix, kLow, kBlocks>(d, got, ninv, row_log);
  BOOST_TEST(first_mismatch(got, ref) == n, "inverse fused " << kRadix << ":" << kLow << ":"
                                                             << kBlocks << " row_log " << row_log
                                                             << " 2^" << log_n);
  const Fr gc = d.circom_coset_shift();
  ref = in, got = in;
  ntt::inverse(d, ref, 1);
  ntt::coset_forward(d, ref, gc, 1);
  interpolate_to_coset<kRadix, kLow, kBlocks>(d, got, powers(d.size_inv(), gc, n), row_log);
  BOOST_TEST(first_mismatch(got, ref) == n, "interpolate to coset " << kRadix << ":" << kLow
                                                                    << " row_log " << row_log
                                                                    << " 2^" << log_n);
}

}  // namespace

BOOST_AUTO_TEST_CASE(plan_covers_every_stage_with_tiles_that_fit) {
  for (unsigned log_n = 1; log_n <= 31; ++log_n) {
    for (unsigned row_log : {8u, 9u}) {
      const auto passes = np::plan(log_n, row_log);
      unsigned stages = 0, expected_log_L = log_n;
      for (const auto& p : passes) {
        expected_log_L -= p.k;
        BOOST_TEST(p.log_L == expected_log_L);
        BOOST_TEST(p.tile_log() <= np::kTileLog);
        BOOST_TEST(p.log_lo <= p.log_L);
        stages += p.k;
      }
      BOOST_TEST(stages == log_n);
      BOOST_TEST(passes.back().log_L == 0u);
    }
  }
  BOOST_TEST(np::plan(27).size() == 3u);  // 9 + 9 + 9: three global passes at 2^27
  BOOST_TEST(np::plan(20).size() == 2u);
}

BOOST_AUTO_TEST_CASE(emulated_passes_match_host_reference) {
  const uint64_t s = seed();
  BOOST_TEST_MESSAGE("seed " << s);
  std::mt19937_64 rng(s);
  const Fr g = ntt::fr_roots().shift;
  for (unsigned log_n = 1; log_n <= 21; ++log_n) {
    if (log_n > 16 && log_n != 21) continue;  // 21: the first size with three passes
    ntt::Domain d(log_n, 1);
    const std::size_t n = d.size();
    const std::vector<Fr> in = random_vec(n, rng);

    auto ref = in, got = in;
    ntt::forward(d, ref, 1);
    dif_forward(d, got, np::Op{});
    BOOST_TEST(first_mismatch(got, ref) == n, "forward 2^" << log_n);
    got = in;
    dif_forward<1>(d, got, np::Op{}, 8);  // other tunings: tiles of 1024, radix-2 units
    BOOST_TEST(first_mismatch(got, ref) == n, "forward (row_log 8, radix 1) 2^" << log_n);
    got = in;
    dif_forward<2>(d, got, np::Op{});
    BOOST_TEST(first_mismatch(got, ref) == n, "forward (radix 2) 2^" << log_n);
    got = in;
    dif_forward_fused(d, got, np::Op{});
    BOOST_TEST(first_mismatch(got, ref) == n, "forward fused 2^" << log_n);
    got = in;
    dif_forward_fused<1, 2>(d, got, np::Op{});  // the default tuning's units
    BOOST_TEST(first_mismatch(got, ref) == n, "forward fused (1:2) 2^" << log_n);
    for (unsigned group : {0u, 1u, 2u}) {  // fewer sub-problems per reversal tile (tuning)
      got = in;
      dif_forward_fused<1, 2>(d, got, np::Op{}, np::kColumnRowLog, group);
      BOOST_TEST(first_mismatch(got, ref) == n,
                 "forward scattered DIF, group " << group << " 2^" << log_n);
    }

    ref = in, got = in;
    ntt::inverse(d, ref, 1);
    const np::Op ninv = np::Op::constant(d.size_inv());
    dit_inverse(d, got, ninv);
    BOOST_TEST(first_mismatch(got, ref) == n, "inverse 2^" << log_n);
    got = in;
    dit_inverse<1>(d, got, ninv);
    BOOST_TEST(first_mismatch(got, ref) == n, "inverse (radix 1) 2^" << log_n);
    got = in;
    dit_inverse<2>(d, got, ninv);
    BOOST_TEST(first_mismatch(got, ref) == n, "inverse (radix 2) 2^" << log_n);
    got = in;
    dit_inverse_fused(d, got, ninv);
    BOOST_TEST(first_mismatch(got, ref) == n, "inverse fused 2^" << log_n);
    got = in;
    dit_inverse_fused<1, 2>(d, got, ninv);
    BOOST_TEST(first_mismatch(got, ref) == n, "inverse fused (1:2) 2^" << log_n);
    got = in;
    dit_inverse_fused<1, 2>(d, got, ninv, np::kColumnRowLog, np::kRevGroupLog);
    BOOST_TEST(first_mismatch(got, ref) == n, "inverse fused, gather group 3, 2^" << log_n);

    if (log_n > 16) continue;
    const Tables fwd = powers(Fr::one(), g, n);
    const Tables inv = powers(d.size_inv(), g.inverse(), n);
    ref = in, got = in;
    ntt::coset_forward(d, ref, g, 1);
    dif_forward(d, got, table_op(fwd, np::Op::kTable));
    BOOST_TEST(first_mismatch(got, ref) == n, "coset forward 2^" << log_n);
    got = in;
    dif_forward_fused(d, got, table_op(fwd, np::Op::kTable));
    BOOST_TEST(first_mismatch(got, ref) == n, "coset forward fused 2^" << log_n);
    got = in;  // row_log 4: three passes at 2^16
    dif_forward_fused<1, 2>(d, got, table_op(fwd, np::Op::kTable), 4);
    BOOST_TEST(first_mismatch(got, ref) == n, "coset forward fused row_log 4 2^" << log_n);

    ref = in, got = in;
    ntt::coset_inverse(d, ref, g, 1);
    dit_inverse(d, got, table_op(inv, np::Op::kTable));
    BOOST_TEST(first_mismatch(got, ref) == n, "coset inverse 2^" << log_n);
    got = in;
    dit_inverse_fused(d, got, table_op(inv, np::Op::kTable));
    BOOST_TEST(first_mismatch(got, ref) == n, "coset inverse fused 2^" << log_n);
    got = in;
    dit_inverse_fused<1, 2>(d, got, table_op(inv, np::Op::kTable), 4);
    BOOST_TEST(first_mismatch(got, ref) == n, "coset inverse fused row_log 4 2^" << log_n);

    // H chain: evaluations -> coset evaluations, with the circom shift (w_2n).
    const Fr gc = d.circom_coset_shift();
    ref = in, got = in;
    ntt::inverse(d, ref, 1);
    ntt::coset_forward(d, ref, gc, 1);
    interpolate_to_coset(d, got, powers(d.size_inv(), gc, n));
    BOOST_TEST(first_mismatch(got, ref) == n, "interpolate to coset 2^" << log_n);
    got = in;
    interpolate_to_coset<1>(d, got, powers(d.size_inv(), gc, n));
    BOOST_TEST(first_mismatch(got, ref) == n, "interpolate to coset (radix 1) 2^" << log_n);
  }
}

// The lowest-group units (low > radix: products by 1 removed at compile time) and the group
// layout above them, for every (radix, low) the kernels build (and 1:2 with the 256-thread
// blocks of three blocks per SM), on one-, two- and three-pass
// plans (row_log 4: two passes from 2^12, three at 2^16; row_log 9: one or two).
BOOST_AUTO_TEST_CASE(lowest_group_units_match_host_reference) {
  const uint64_t s = seed();
  BOOST_TEST_MESSAGE("seed " << s);
  std::mt19937_64 rng(s);
  for (unsigned log_n = 1; log_n <= 16; ++log_n) {
    ntt::Domain d(log_n, 1);
    const std::vector<Fr> in = random_vec(d.size(), rng);
    for (unsigned row_log : {4u, 9u}) {
      check_tuning<1, 1>(d, in, row_log);
      check_tuning<1, 2>(d, in, row_log);
      check_tuning<1, 2, 3>(d, in, row_log);  // 256 threads, 8 elements each (the default tuning)
      check_tuning<1, 3>(d, in, row_log);
      check_tuning<2, 2>(d, in, row_log);
      check_tuning<2, 3>(d, in, row_log);
    }
  }
}

BOOST_AUTO_TEST_CASE(group_layout_covers_each_stage_once) {
  // System: group_count / group_lo / group_size. Expectation: for every k <= 11 and (r, r0),
  // the groups tile stages 0 .. k-1 in order, group 0 has min(r0, k) stages, the others <= r.
  for (unsigned k = 1; k <= 11; ++k) {
    for (unsigned r = 1; r <= 3; ++r) {
      for (unsigned r0 = r; r0 <= 3; ++r0) {
        np::Pass p{20, 9, k, 0};
        unsigned next = 0;
        const unsigned G = np::group_count(p, r, r0);
        for (unsigned i = 0; i < G; ++i) {
          BOOST_TEST(np::group_lo(r, r0, i) == next);
          const unsigned m = np::group_size(p, r, r0, i);
          BOOST_TEST((m >= 1 && m <= (i == 0 ? r0 : r)));
          next += m;
        }
        BOOST_TEST(next == k, "k " << k << " r " << r << " r0 " << r0);
        BOOST_TEST(np::group_size(p, r, r0, 0) == std::min(r0, k));
      }
    }
  }
}

// System: the tile layout of the pass with the fused bit reversal (fuse_reversal, global_index,
// block_tile). Expectation: for every size up to 2^20, both row_log settings and every group
// size, the tiles of the launched blocks cover each element exactly once, each row of a tile
// reverses to 2^log_lo adjacent elements (the run the scattered loads/stores rely on), and a
// one-pass plan keeps one tile (in place). Tolerance: none (integer indexing).
BOOST_AUTO_TEST_CASE(reversal_tiles_cover_each_element_once_in_runs) {
  for (unsigned log_n = 1; log_n <= 20; ++log_n) {
    for (unsigned row_log : {4u, 9u}) {
      for (unsigned group = 0; group <= np::kRevGroupLog; ++group) {
        const auto plan = np::plan(log_n, row_log);
        const np::Pass p = np::fuse_reversal(plan.back(), log_n % 2 == 0, group);
        BOOST_TEST(p.tile_log() <= np::kTileLog);
        if (plan.size() == 1) BOOST_TEST(p.blocks() == 1u);
        std::vector<uint8_t> seen(std::size_t{1} << log_n, 0);
        bool runs_ok = true;
        for (uint64_t b = 0; b < p.blocks(); ++b) {
          const uint64_t tile = np::block_tile(p, b);
          for (unsigned e = 0; e < p.tile_n(); ++e) ++seen[np::global_index(p, tile, e)];
          const unsigned run = 1u << p.log_lo;
          for (unsigned e0 = 0; e0 < p.tile_n(); e0 += run) {
            uint64_t lo = ~uint64_t{0}, hi = 0;
            for (unsigned u = 0; u < run; ++u) {
              const uint64_t r = np::rev_index(p, np::global_index(p, tile, e0 + u));
              lo = std::min(lo, r);
              hi = std::max(hi, r);
            }
            runs_ok = runs_ok && hi - lo == run - 1;
          }
        }
        BOOST_TEST(std::count(seen.begin(), seen.end(), 1) == static_cast<long>(seen.size()),
                   "2^" << log_n << " row_log " << row_log << " group " << group);
        BOOST_TEST(runs_ok, "runs 2^" << log_n << " row_log " << row_log << " group " << group);
      }
    }
  }
}

// System: the remapped radix-1 units (stage_unit, lever Z: twiddle index taken from the unit's
// top bits, products by w^0 skipped) and the swizzle (swz) on a plan whose column pass has 4
// columns per tile (log_lo = 2, k = 9: 2^20 = 9 + 11 stages with row_log 9, the tile shape of
// 2^26 and 2^27), with the default tuning's units (1:2). Expectation: forward (fused reversal),
// inverse (fused) and the H chain equal the host reference element for element. Tolerance: none.
BOOST_AUTO_TEST_CASE(four_column_tiles_match_host_reference) {
  const uint64_t s = seed();
  BOOST_TEST_MESSAGE("seed " << s);
  std::mt19937_64 rng(s);
  const unsigned log_n = 20;
  const auto plan = np::plan(log_n);
  BOOST_TEST(plan.front().log_lo == 2u);
  BOOST_TEST(plan.front().k == 9u);
  BOOST_TEST(np::twiddle_uniform(plan.front(), 2));
  ntt::Domain d(log_n, 1);
  const std::size_t n = d.size();
  const std::vector<Fr> in = random_vec(n, rng);
  auto ref = in, got = in;
  ntt::forward(d, ref, 1);
  dif_forward_fused<1, 2>(d, got, np::Op{});
  BOOST_TEST(first_mismatch(got, ref) == n, "forward fused (1:2) 2^" << log_n);
  ref = in, got = in;
  ntt::inverse(d, ref, 1);
  dit_inverse_fused<1, 2>(d, got, np::Op::constant(d.size_inv()));
  BOOST_TEST(first_mismatch(got, ref) == n, "inverse fused (1:2) 2^" << log_n);
  const Fr gc = d.circom_coset_shift();
  ref = in, got = in;
  ntt::inverse(d, ref, 1);
  ntt::coset_forward(d, ref, gc, 1);
  interpolate_to_coset<1, 2>(d, got, powers(d.size_inv(), gc, n));
  BOOST_TEST(first_mismatch(got, ref) == n, "interpolate to coset (1:2) 2^" << log_n);
  // 256-thread blocks (1:2:3, the default): 8 elements per thread in the load/store phases (on
  // the device the fused H pass keeps 1:2:2's 512-thread kernel; the emulation covers both).
  got = in;
  interpolate_to_coset<1, 2, 3>(d, got, powers(d.size_inv(), gc, n));
  BOOST_TEST(first_mismatch(got, ref) == n, "interpolate to coset (1:2:3) 2^" << log_n);
  ref = in, got = in;
  ntt::forward(d, ref, 1);
  dif_forward_fused<1, 2, 3>(d, got, np::Op{});
  BOOST_TEST(first_mismatch(got, ref) == n, "forward fused (1:2:3) 2^" << log_n);
  ref = in, got = in;
  ntt::inverse(d, ref, 1);
  dit_inverse_fused<1, 2, 3>(d, got, np::Op::constant(d.size_inv()));
  BOOST_TEST(first_mismatch(got, ref) == n, "inverse fused (1:2:3) 2^" << log_n);
}

// System: swz, the shared-memory swizzle. Expectation: a permutation of every tile of 2^11
// elements, and conflict-free (8 distinct 16-byte bank groups, slot mod 8) for the 8-lane phases
// it is meant for: 8 consecutive elements, 8 elements 8 apart, and, with 4 columns per tile,
// 4 columns x 2 rows 2^s apart for s = 0 (radix-1 units as run_group numbers them) and s = 3
// (stage_unit's units at t = 2); the others (s = 2, 4 .. 6) have 2-way conflicts, kept because
// the conflict-free swizzle measured slower (ntt_pass.hpp, swz). Tolerance: none.
BOOST_AUTO_TEST_CASE(swizzle_is_a_permutation_without_conflicts_where_meant) {
  std::vector<uint8_t> seen(1u << np::kTileLog, 0);
  for (unsigned e = 0; e < (1u << np::kTileLog); ++e) ++seen[np::swz(e)];
  BOOST_TEST(std::count(seen.begin(), seen.end(), 1) == static_cast<long>(seen.size()));
  auto distinct = [](const std::vector<unsigned>& es) {
    unsigned mask = 0;
    for (unsigned e : es) mask |= 1u << (np::swz(e) & 7u);
    return mask == 0xFFu;
  };
  bool ok = true;
  for (unsigned base = 0; base + 64 <= (1u << np::kTileLog); base += 64) {
    std::vector<unsigned> consecutive, stride8;
    for (unsigned l = 0; l < 8; ++l)
      consecutive.push_back(base + l), stride8.push_back(base + 8 * l);
    ok = ok && distinct(consecutive) && distinct(stride8);
  }
  for (unsigned s : {0u, 3u}) {
    for (unsigned row = 0; row < 512; ++row) {
      if (row & (1u << s)) continue;
      std::vector<unsigned> es;
      for (unsigned h = 0; h < 2; ++h)
        for (unsigned c = 0; c < 4; ++c) es.push_back(((row + (h << s)) << 2) | c);
      ok = ok && distinct(es);
    }
  }
  BOOST_TEST(ok);
}

// The H chain with split tables on three-pass plans of unequal passes (2^16 as 4 + 4 + 8, 2^19 as
// 5 + 5 + 9) and at 2^21 (7 + 7 + 7), for the circom shift and ffjavascript's.
BOOST_AUTO_TEST_CASE(emulated_h_chain_with_split_tables_matches_host_reference) {
  const uint64_t s = seed();
  BOOST_TEST_MESSAGE("seed " << s);
  std::mt19937_64 rng(s);
  for (auto [log_n, row_log] : {std::pair{16u, 4u}, std::pair{19u, 5u}, std::pair{21u, 9u}}) {
    ntt::Domain d(log_n, 1);
    BOOST_TEST_REQUIRE(np::coset_split_applies(np::plan(log_n, row_log)));
    const std::vector<Fr> in = random_vec(d.size(), rng);
    for (const Fr& g : {d.circom_coset_shift(), ntt::fr_roots().shift}) {
      auto ref = in, got = in;
      ntt::inverse(d, ref, 1);
      ntt::coset_forward(d, ref, g, 1);
      interpolate_to_coset_split(d, got, g, row_log);
      BOOST_TEST(first_mismatch(got, ref) == d.size(),
                 "interpolate to coset, split, 2^" << log_n << " row_log " << row_log);
    }
  }
}
