// System: the batch-affine bucket accumulation of the GPU MSM (gpu/msm/affine_batch.hpp), run
// on the host by calling its three kernels' thread bodies (prep, invert, add) for every thread
// of every round (and the map kernel's entries), with the round bookkeeping of msm_accumulate.cuh
// (new counts ceil(len / 2), their exclusive scan as the output offsets, the next round's ranges
// from those offsets). Expectation: after the last round every bucket holds at most one item, equal
// to the sum of its original (signed) items computed by the host reference Jacobian addition; the
// item count drops by exactly the round's pair additions; a bucket ends empty only when it started
// empty. Tolerance: none (exact field arithmetic). Inputs: fresh random buckets per run (seed
// printed; PRESTAGE_SEED replays): lengths 0, 1, 2, odd and up to 200 items, random signs, points
// at infinity, P next to P (doubling) and P next to -P (the identity), several per-thread (K) and
// per-inversion (K2) chunk sizes, so chunks cross bucket boundaries; G1 and G2; both add thread
// bodies in three modes (the map entries also by the map kernel's warp search; Mode: add_thread
// through the values in round 0 with binary-Euclid inversions; add_thread_lean on gathered items;
// add_thread_lean through the values in round 0, the affine_lean_round0 option), the last two with
// the batched binary-GCD inversion (the default).
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "gpu/ec/g1.hpp"
#include "gpu/ec/g2.hpp"
#include "gpu/ec/sample_points.hpp"
#include "gpu/msm/affine_batch.hpp"

namespace {

namespace ab = prestage::msm::affine_batch;
namespace ec = prestage::ec;

uint64_t seed() {
  if (const char* v = std::getenv("PRESTAGE_SEED")) return std::stoull(v);
  std::random_device rd;
  return (uint64_t{rd()} << 32) ^ rd();
}

template <class Affine>
Affine src_load(const std::vector<Affine>& points, const std::vector<uint32_t>& vals,
                std::size_t i) {
  return ab::ItemSource<Affine>{points.data(), vals.data()}.load(static_cast<unsigned>(i));
}

// How the rounds run: Msmaffine: round 0 reads through the values, the add kernel is add_thread
// (the first batch-affine body, msm::DeviceAffineAdd::Msmaffine), inversions by ff::inverse_binary
// (the binary extended Euclid, msm::DeviceAffineInverse::Binary); Gathered: round 0's items
// gathered into bucket order first (msm::DeviceOptions::affine_gather), add_thread_lean;
// DirectLean: round 0 through the values, add_thread_lean (msm::DeviceOptions::affine_lean_round0),
// prep reading the points' infinity bits (msm::DeviceOptions::affine_inf_bits). The last two
// invert by ff::inverse_bingcd (the default).
enum class Mode { Msmaffine, Gathered, DirectLean };

// Runs the rounds on nb buckets of (point index | sign << 31) values; returns the final items
// and leaves the final ranges in start/end.
template <class Affine>
std::vector<Affine> emulate(const std::vector<Affine>& points, const std::vector<uint32_t>& vals,
                            std::vector<unsigned>& start, std::vector<unsigned>& end, unsigned K,
                            unsigned K2, unsigned& rounds, Mode mode) {
  const bool lean = mode != Mode::Msmaffine;
  const bool gather = mode == Mode::Gathered;
  using Field = typename Affine::Field;
  const std::size_t nb = start.size();
  std::vector<Affine> cur;
  std::size_t items = 0;
  for (std::size_t b = 0; b < nb; ++b) items += end[b] - start[b];
  std::size_t bound = 0;
  unsigned map_mismatches = 0;
  for (rounds = 0;; ++rounds) {
    std::vector<unsigned> off(nb + 1, 0);
    unsigned pairs = 0;
    for (std::size_t b = 0; b < nb; ++b) {
      off[b + 1] = off[b] + ab::round_count(end[b] - start[b]);
      pairs += (end[b] - start[b]) / 2;
    }
    const unsigned P = off[nb];
    BOOST_TEST(P + pairs == items);
    // The bounds the persistent scratch is sized by (max_outputs): round 0 from the items,
    // every later round from the bound of the round before.
    bound = rounds == 0 ? ab::max_outputs(items, nb) : ab::max_outputs(bound, nb);
    BOOST_TEST(P <= bound, "round " << rounds);
    if (pairs == 0) break;
    const unsigned T = (P + K - 1) / K, U = (T + K2 - 1) / K2;
    std::vector<Field> pre(P), tprod(T), scratch(T);
    std::vector<Affine> out(P);
    std::vector<uint32_t> map(P);
    if (rounds == 0 && gather)  // the gather kernel
      for (std::size_t i = 0; i < items; ++i) cur.push_back(src_load(points, vals, i));
    const bool direct = rounds == 0 && !gather;
    ab::ItemSource<Affine> src{direct ? points.data() : cur.data(), direct ? vals.data() : nullptr};
    // Round 0 through the values: the points' infinity bits (affine_inf_bits_kernel's layout) in
    // the DirectLean mode, the flags read from the points in the Msmaffine mode.
    std::vector<uint32_t> inf_bits((points.size() + 31) / 32, 0);
    for (std::size_t i = 0; i < points.size(); ++i)
      if (points[i].infinity) inf_bits[i / 32] |= 1u << (i % 32);
    if (direct && mode == Mode::DirectLean) src.inf_bits = inf_bits.data();
    for (unsigned j = 0; j < P; ++j) {
      map[j] = ab::map_entry(j, start.data(), end.data(), off.data(), nb);
      // The map kernel's warp search (find_bucket_from) from the bucket of the warp's first
      // output, and from hints further back (groups of 8 and 256, bucket 0: the walk's
      // fallback to the binary search), gives the same entry.
      for (unsigned group : {32u, 8u, 256u, 0u}) {
        const std::size_t b0 = group == 0 ? 0 : ab::find_bucket(off.data(), nb, j & ~(group - 1));
        if (ab::map_entry_from(j, start.data(), end.data(), off.data(), nb, b0) != map[j])
          ++map_mismatches;
      }
    }
    // The per-bucket map kernel (map_bucket_lane, warps of 32 lanes, and 3 lanes: a lane takes
    // several outputs of a bucket) writes the same entries.
    for (unsigned lanes : {32u, 3u}) {
      std::vector<uint32_t> bmap(P, 0xFFFFFFFFu);
      for (std::size_t b = 0; b < nb; ++b)
        for (unsigned l = 0; l < lanes; ++l)
          ab::map_bucket_lane(b, l, lanes, start.data(), end.data(), off.data(), bmap.data());
      if (bmap != map) ++map_mismatches;
    }
    // Every output is on exactly one thread's chain.
    std::vector<int> seen(P, 0);
    for (unsigned t = 0; t < T; ++t)
      for (unsigned i = 0; i < ab::chain_length(t, T, P, K); ++i) ++seen[t + i * T];
    BOOST_TEST((std::count(seen.begin(), seen.end(), 1) == static_cast<long>(P)));
    // Threads as the kernels launch them (whole blocks of 256: t >= T must do nothing).
    const unsigned grid = (T + 255) / 256 * 256;
    for (unsigned t = T; t < grid; ++t) BOOST_TEST(ab::chain_length(t, T, P, K) == 0u);
    for (unsigned t = 0; t < T; ++t)
      ab::prep_thread(t, T, P, K, src, map.data(), pre.data(), tprod.data());
    for (unsigned u = 0; u < U; ++u) {
      if (lean)
        ab::invert_thread(u, T, K2, tprod.data(), scratch.data());
      else
        ab::invert_thread<ab::InverseKind::Binary>(u, T, K2, tprod.data(), scratch.data());
    }
    for (unsigned t = 0; t < T; ++t) {
      if (lean)
        direct ? ab::add_thread_lean<true>(t, T, P, K, src, map.data(), pre.data(), tprod.data(),
                                           out.data())
               : ab::add_thread_lean<false>(t, T, P, K, src, map.data(), pre.data(), tprod.data(),
                                            out.data());
      else
        ab::add_thread(t, T, P, K, src, map.data(), pre.data(), tprod.data(), out.data());
    }
    for (std::size_t b = 0; b < nb; ++b) {
      start[b] = off[b];
      end[b] = off[b + 1];
    }
    cur = std::move(out);
    items = P;
  }
  BOOST_TEST(map_mismatches == 0u);
  if (rounds == 0)  // nothing to add: the round-0 items as they are
    for (std::size_t i = 0; i < items; ++i) cur.push_back(src_load(points, vals, i));
  return cur;
}

template <class Affine, class Jacobian>
void run_case(std::mt19937_64& rng, unsigned K, unsigned K2, Mode mode) {
  auto points = ec::random_walk_points<Affine, Jacobian>(64, rng);
  points[7] = Affine::identity();
  std::vector<uint32_t> vals;
  std::vector<unsigned> start, end;
  const unsigned lens[] = {0, 1, 2, 3, 0, 5, 2, 8, 1, 33, 0, 200, 7, 4, 64};
  for (unsigned len : lens) {
    start.push_back(static_cast<unsigned>(vals.size()));
    for (unsigned k = 0; k < len; ++k) {
      const uint32_t pt = static_cast<uint32_t>(rng() % points.size());
      uint32_t v = pt | (rng() % 2 ? 0x80000000u : 0u);
      const unsigned shape = rng() % 8;
      if (k % 2 == 1 && shape == 0) v = vals.back();                // P next to P
      if (k % 2 == 1 && shape == 1) v = vals.back() ^ 0x80000000u;  // P next to -P
      if (shape == 2) v = 7;                                        // infinity
      vals.push_back(v);
    }
    end.push_back(static_cast<unsigned>(vals.size()));
  }
  // Reference bucket sums (host Jacobian addition).
  std::vector<Jacobian> ref;
  for (std::size_t b = 0; b < start.size(); ++b) {
    Jacobian s = Jacobian::identity();
    for (unsigned i = start[b]; i < end[b]; ++i) s = s + src_load(points, vals, i).to_jacobian();
    ref.push_back(s);
  }
  auto s2 = start, e2 = end;
  unsigned rounds = 0;
  const auto items = emulate(points, vals, s2, e2, K, K2, rounds, mode);
  BOOST_TEST(rounds == 8u);  // ceil(log2(200))
  for (std::size_t b = 0; b < start.size(); ++b) {
    const unsigned len = e2[b] - s2[b];
    BOOST_TEST(len == (end[b] > start[b] ? 1u : 0u), "bucket " << b);
    const Jacobian got = len == 0 ? Jacobian::identity() : items[s2[b]].to_jacobian();
    BOOST_TEST((got == ref[b]),
               "bucket " << b << " K=" << K << " K2=" << K2 << " mode=" << static_cast<int>(mode));
    if (len == 1) BOOST_TEST(items[s2[b]].is_on_curve());
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(pair_index_and_bucket_search) {
  // Buckets of 3, 0, 4, 1 items at [0,3), [3,3), [3,7), [7,8): outputs 2, 0, 2, 1.
  const unsigned start[] = {0, 3, 3, 7}, end[] = {3, 3, 7, 8};
  const unsigned off[] = {0, 2, 2, 4, 5};
  const std::size_t want_b[] = {0, 0, 2, 2, 3};
  const unsigned want_first[] = {0, 2, 3, 5, 7};
  const bool want_pair[] = {true, false, true, true, false};
  for (unsigned j = 0; j < 5; ++j) {
    const std::size_t b = ab::find_bucket(off, 4, j);
    BOOST_TEST(b == want_b[j], "output " << j);
    for (std::size_t b0 = 0; b0 <= want_b[j]; ++b0)  // any hint at or before the bucket
      BOOST_TEST(ab::find_bucket_from(off, 4, j, b0) == want_b[j],
                 "output " << j << " from " << b0);
    const auto pi = ab::pair_index(j, b, start, end, off);
    BOOST_TEST(pi.first == want_first[j], "output " << j);
    BOOST_TEST(pi.pair == want_pair[j], "output " << j);
    BOOST_TEST(
        ab::map_entry(j, start, end, off, 4) == (want_first[j] | (want_pair[j] ? 0x80000000u : 0u)),
        "output " << j);
  }
  // Chains: P = 5 outputs, K = 2 -> T = 3 threads: {0, 3}, {1, 4}, {2}.
  BOOST_TEST(ab::chain_length(0, 3, 5, 2) == 2u);
  BOOST_TEST(ab::chain_length(1, 3, 5, 2) == 2u);
  BOOST_TEST(ab::chain_length(2, 3, 5, 2) == 1u);
  // A grid rounds T up to whole blocks: threads t >= T have no outputs, even when t < P.
  BOOST_TEST(ab::chain_length(3, 3, 5, 2) == 0u);
  BOOST_TEST(ab::chain_length(200, 125, 1000, 8) == 0u);
  BOOST_TEST(ab::round_count(0) == 0u);
  BOOST_TEST(ab::round_count(1) == 1u);
  BOOST_TEST(ab::round_count(2) == 1u);
  BOOST_TEST(ab::round_count(7) == 4u);
}

BOOST_AUTO_TEST_CASE(g1_rounds_match_reference_sums) {
  const uint64_t s = seed();
  BOOST_TEST_MESSAGE("seed " << s);
  std::mt19937_64 rng(s);
  for (Mode mode : {Mode::Msmaffine, Mode::Gathered, Mode::DirectLean})
    for (unsigned K : {1u, 3u, 8u})
      for (unsigned K2 : {1u, 5u, 64u}) run_case<ec::G1Affine, ec::G1Jacobian>(rng, K, K2, mode);
}

BOOST_AUTO_TEST_CASE(g2_rounds_match_reference_sums) {
  const uint64_t s = seed();
  BOOST_TEST_MESSAGE("seed " << s);
  std::mt19937_64 rng(s);
  for (Mode mode : {Mode::Msmaffine, Mode::Gathered, Mode::DirectLean}) {
    run_case<ec::G2Affine, ec::G2Jacobian>(rng, 8, 64, mode);
    run_case<ec::G2Affine, ec::G2Jacobian>(rng, 3, 5, mode);
  }
}
