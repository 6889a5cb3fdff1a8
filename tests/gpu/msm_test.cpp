// System: the GPU Pippenger MSM (gpu/msm/gpu_msm.hpp) for G1 and G2, against the host reference
// MSM (gpu/msm/host_msm.hpp). Expectation: the same group element (compared across
// representations). Tolerance: none (exact). Inputs: fresh random scalars and points per run
// (seed printed), including the point at infinity, repeated points, scalars 0, 1 and r - 1, and
// scalar vectors of only 0 and 1 (the 0/1 split);
// the points buffer on the device is poisoned (0xFF) before the points are copied in. Every case
// runs every path below against the same reference: the default options (msm::DeviceAccumulation::
// Auto: XYZZ at the sizes tested here; its rule is tested below), XYZZ levels only, batch-affine
// rounds with the default kernels and the default scratch kept for the whole call all the way down
// (affine_min_pairs = 1: every round runs, whatever the size) and down to 64 pair additions, the
// XYZZ levels finishing (the G2 default at 2^20 to 2^23, at these sizes);
// partnered inputs (point 2k+1 = -point 2k or = point 2k, with equal scalars) put P and -P, or P
// and P, side by side in one bucket (the identity and doubling cases of a pair). Three more
// batch-affine paths take the non-default kernels and knobs (Fermat inversions, affine_fermat, and
// the add_thread body, msm::DeviceAffineAdd::Msmaffine; the binary-Euclid inversions,
// msm::DeviceAffineInverse::Binary (the default is the batched binary GCD, gpu/ff/
// inverse_bingcd_hd.hpp); the round-0 gather; both lean add shapes; every prep occupancy; odd K
// and K2; round 0's add with the lean body through the sorted values, affine_lean_round0, at
// both occupancies on two of the paths), two of them
// and one more with the scratch allocated per round (affine_persistent_scratch = false). The
// batch-affine paths check the stats too: the scratch is allocated once exactly when a round can
// run. Every path but the per-round ones runs again on a caller's workspace (msm::DeviceWorkspace)
// of exactly the queried size, poisoned, with a guard behind it that must stay intact; odd paths
// there overlap steps 1-2 with the accumulation (overlap_sort) over several window groups.
// Size knob: PRESTAGE_GPU_TEST_MSM_MAX_LOG (default 16 for G1; G2 runs up to 4 less).
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <string>

#include "gpu/ec/sample_points.hpp"
#include "gpu/msm/gpu_msm.hpp"
#include "gpu/msm/gpu_msm_fixed_base.hpp"
#include "gpu/msm/host_msm.hpp"
#include "tests/gpu/gpu_test_util.hpp"

namespace {

using prestage::ff::Fr;
namespace ec = prestage::ec;
namespace g = prestage::gpu;
namespace gt = prestage::gpu::test;
namespace msm = prestage::msm;

// A caller's MSM workspace of `bytes` followed by a guard of kGuard bytes, all poisoned (0xFF):
// the MSM must use no byte beyond its workspace (guard_intact), and must not depend on what the
// workspace held before (poison first, then whatever the previous call left).
constexpr std::size_t kGuard = std::size_t{1} << 20;
struct GuardedWorkspace {
  g::DeviceBuffer<unsigned char> buf;
  std::size_t bytes;
  GuardedWorkspace(g::DeviceAllocator& alloc, std::size_t bytes_)
      : buf(gt::poisoned<unsigned char>(alloc, bytes_ + kGuard)), bytes(bytes_) {}
  msm::DeviceWorkspace ws() const { return {buf.data(), bytes}; }
  bool guard_intact() const {
    std::vector<unsigned char> h(kGuard);
    PRESTAGE_CUDA_CHECK(cudaMemcpy(h.data(), buf.data() + bytes, kGuard, cudaMemcpyDeviceToHost));
    for (unsigned char b : h)
      if (b != 0xFF) return false;
    return true;
  }
};

// n affine points with random discrete logs (ec::random_walk_points), with the point at infinity
// at index 3 and a repeat of point 0 at index 5 when n is large enough.
template <class Affine, class Jacobian>
std::vector<Affine> random_points(std::size_t n, std::mt19937_64& rng) {
  std::vector<Affine> out = ec::random_walk_points<Affine, Jacobian>(n, rng);
  if (n > 3) out[3] = Affine::identity();
  if (n > 5) out[5] = out[0];
  return out;
}

enum class Scalars { Random, PorepShaped, Zeros, ZeroOne };

std::vector<Fr> make_scalars(std::size_t n, Scalars kind, std::mt19937_64& rng) {
  std::vector<Fr> s(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (kind == Scalars::Random) {
      s[i] = Fr::random(rng);
    } else if (kind == Scalars::PorepShaped) {  // mostly 0 and 1, a few full-size values
      const unsigned u = rng() % 100;
      s[i] = u < 50 ? Fr::zero() : u < 95 ? Fr::one() : Fr::random(rng);
    } else if (kind == Scalars::Zeros) {
      s[i] = Fr::zero();
    } else {  // ZeroOne: only 0 and 1 (nothing left for the windows after the split)
      s[i] = rng() % 2 ? Fr::one() : Fr::zero();
    }
  }
  if (kind == Scalars::Zeros || kind == Scalars::ZeroOne) return s;
  if (n > 1) s[1] = Fr::zero();
  if (n > 2) s[2] = -Fr::one();  // r - 1
  if (n > 4) s[4] = Fr::one();
  return s;
}

// distinct > 0: only the first `distinct` points are random, the rest repeat them (i % distinct),
// so buckets (and the 1-scalars' sum) add a point to itself. split_01:
// msm::DeviceOptions::split_01.
enum class Partner { None, Negated, Equal };

template <class Curve, class HostCurve>
void check(std::size_t n, Scalars kind, std::mt19937_64& rng, unsigned window_bits = 0,
           std::size_t chunk = 0, std::size_t distinct = 0, bool split_01 = true,
           Partner partner = Partner::None) {
  using Affine = typename Curve::Affine;
  using Jacobian = typename Curve::Jacobian;
  auto points = random_points<Affine, Jacobian>(distinct > 0 ? std::min(distinct, n) : n, rng);
  points.reserve(n);
  for (std::size_t i = points.size(); i < n; ++i) points.push_back(points[i % distinct]);
  auto scalars = make_scalars(n, kind, rng);
  if (partner != Partner::None) {
    for (std::size_t i = 1; i < n; i += 2) {
      points[i] = partner == Partner::Negated ? -points[i - 1] : points[i - 1];
      scalars[i] = scalars[i - 1];
    }
  }
  const Jacobian ref = msm::msm<HostCurve>(points, scalars);

  g::SyncAllocator sync_alloc;
  g::StreamOrderedAllocator pool;
  g::Stream stream;
  auto d_points = gt::poisoned(sync_alloc, n, points.data());
  auto d_scalars = gt::poisoned(sync_alloc, n, scalars.data());
  static const char* kinds[] = {" random", " porep", " zeros", " zero-one"};
  static const char* partners[] = {"", " partner=negated", " partner=equal"};
  static const char* paths[] = {
      "xyzz",
      "batch-affine (all rounds)",
      "batch-affine (>= 64 pairs a round), round 0's add lean at 3 blocks/SM, infinity flags "
      "read from the points",
      "xyzz, level 0 at 1 block/SM, last reduction in blocks of 64, parts of 2, suffix scan",
      "batch-affine (all rounds), msmaffine's kernels: Fermat inversions, add_thread, prep at 1 "
      "block/SM, K2 = 64, map by a thread an output with a search a warp, scratch per round, "
      "double-and-add reduction",
      "batch-affine (>= 64 pairs a round), round 0 gathered, lean add at high occupancy, prep at "
      "the non-default occupancy, K = 3, K2 = 5",
      "batch-affine (all rounds), round 0 gathered, lean add at low occupancy, prep at 3 "
      "blocks/SM, invert threads capped at 2^16, binary-Euclid inversions, map by a search an "
      "output, scratch per round",
      "batch-affine (>= 64 pairs a round), round 0's add lean at 2 blocks/SM, scratch per round",
      "default options"};
  constexpr bool g2 = sizeof(typename Affine::Field) > 48;
  for (int path = 0; path < 9; ++path) {
    msm::DeviceOptions opt;
    msm::DeviceStats stats;
    opt.stats = &stats;
    opt.window_bits = window_bits;
    opt.split_01 = split_01;
    const bool affine = path == 1 || path == 2 || (path >= 4 && path <= 7);
    if (path != 8)
      opt.accumulation =
          affine ? msm::DeviceAccumulation::BatchAffine : msm::DeviceAccumulation::Xyzz;
    if (affine) opt.affine_min_pairs = path == 2 || path == 5 || path == 7 ? 64 : 1;
    const bool per_round = path == 4 || path == 6 || path == 7;
    if (per_round) opt.affine_persistent_scratch = false;
    if (path == 2) {
      opt.affine_lean_round0 = 3;   // round 0 through the values, lean add body
      opt.affine_inf_bits = false;  // prep reads the infinity flags from the points
    }
    if (path == 7) opt.affine_lean_round0 = 2;
    if (path == 4) {
      opt.affine_fermat = true;
      opt.affine_add = msm::DeviceAffineAdd::Msmaffine;
      opt.affine_prep_min_blocks = 1;
      opt.affine_per_inversion = 64;
      opt.affine_map_bucket = false;  // affine_map_kernel (a thread an output),
      opt.affine_map_search = true;   // one binary search a warp (off by default)
      opt.reduce = msm::DeviceReduce::DoubleAdd;
    }
    if (path == 5) {
      opt.affine_gather = true;
      opt.affine_add = msm::DeviceAffineAdd::Lean;
      opt.affine_prep_min_blocks = g2 ? 3 : 2;  // the defaults: G1 3, G2 2
      opt.affine_per_thread = 3;
      opt.affine_per_inversion = 5;
    }
    if (path == 6) {
      opt.affine_gather = true;
      opt.affine_add = msm::DeviceAffineAdd::LeanLow;
      opt.affine_prep_min_blocks = 3;
      opt.affine_invert_threads = 1u << 16;
      opt.affine_inverse = msm::DeviceAffineInverse::Binary;
      opt.affine_map_bucket = false;  // affine_map_kernel, a binary search an output
    }
    if (path == 3) {
      opt.accumulate_min_blocks = 1;
      opt.reduce_block = 64;
      opt.reduce_part_len = 2;
      opt.reduce = msm::DeviceReduce::SuffixScan;
    }
    const Jacobian got =
        chunk == 0 ? msm::on_device<Curve>(d_points.data(), d_scalars.data(), n, pool, stream, opt)
                   : msm::on_device_streamed<Curve>(points.data(), d_scalars.data(), n, chunk, pool,
                                                    stream, opt);
    BOOST_TEST((got == ref), "MSM " << paths[path] << " n=" << n << " c=" << window_bits
                                    << " chunk=" << chunk << " distinct=" << distinct
                                    << " split=" << split_01 << kinds[static_cast<int>(kind)]
                                    << partners[static_cast<int>(partner)]);
    // The stats (of the last chunk when streamed): the accumulation used, and the persistent
    // scratch allocated exactly when round 0 could run (some round ran: affine_rounds > 0).
    BOOST_TEST(stats.batch_affine == affine);
    if (affine && !per_round && stats.affine_rounds > 0)
      BOOST_TEST(stats.affine_scratch_bytes > 0u);
    if (!affine || per_round) BOOST_TEST(stats.affine_scratch_bytes == 0u);
    // The allocating call laid out the workspace the query declares (of one chunk when streamed).
    BOOST_TEST(stats.workspace_bytes ==
               msm::device_workspace_bytes<Curve>(chunk == 0 ? n : std::min(chunk, n), opt));
    if (per_round || n == 0) continue;  // per-round scratch needs an allocator
    // The same options on a caller's workspace of exactly the queried size (poisoned, with a
    // guard behind it): the same sum, and no byte written past the workspace. Odd paths overlap
    // steps 1-2 with the accumulation (overlap_sort) over groups of 3 windows (several groups).
    // Path 3 converts the scalars per window group (scalars_once = false, not the default); the
    // other odd paths once per call (several groups: the workspace's canonical scalars).
    if (path % 2 == 1) {
      opt.overlap_sort = true;
      opt.max_group_pairs = 3 * n;
    }
    if (path == 3) opt.scalars_once = false;
    const std::size_t ws_bytes = chunk == 0
                                     ? msm::device_workspace_bytes<Curve>(n, opt)
                                     : msm::device_streamed_workspace_bytes<Curve>(n, chunk, opt);
    GuardedWorkspace gw(sync_alloc, ws_bytes);
    const Jacobian got_ws =
        chunk == 0
            ? msm::on_device<Curve>(d_points.data(), d_scalars.data(), n, gw.ws(), stream, opt)
            : msm::on_device_streamed<Curve>(points.data(), d_scalars.data(), n, chunk, gw.ws(),
                                             stream, opt);
    BOOST_TEST((got_ws == ref), "MSM on a workspace, " << paths[path] << " n=" << n << " chunk="
                                                       << chunk << kinds[static_cast<int>(kind)]);
    BOOST_TEST(gw.guard_intact(), "MSM wrote past its workspace, " << paths[path] << " n=" << n);
    BOOST_TEST(stats.batch_affine == affine);
    if (path == 1 && chunk == 0 && kind == Scalars::Random && n > 1) BOOST_TEST(stats.scalars_once);
    if (path == 3) BOOST_TEST(!stats.scalars_once);
    BOOST_TEST(stats.workspace_bytes ==
               msm::device_workspace_bytes<Curve>(chunk == 0 ? n : std::min(chunk, n), opt));
  }
}

std::vector<std::size_t> sizes(unsigned max_log) {
  std::vector<std::size_t> v = {1, 7};
  for (unsigned k = 10; k <= max_log; ++k) v.push_back(std::size_t{1} << k);
  return v;
}

}  // namespace

BOOST_AUTO_TEST_CASE(g1_msm_matches_host_reference) {
  const uint64_t seed = gt::fresh_seed();
  BOOST_TEST_MESSAGE("seed " << seed);
  std::mt19937_64 rng(seed);
  for (std::size_t n : sizes(gt::env_log("PRESTAGE_GPU_TEST_MSM_MAX_LOG", 16))) {
    check<msm::G1Curve, msm::G1Curve>(n, Scalars::Random, rng);
  }
}

BOOST_AUTO_TEST_CASE(g2_msm_matches_host_reference) {
  const uint64_t seed = gt::fresh_seed();
  BOOST_TEST_MESSAGE("seed " << seed);
  std::mt19937_64 rng(seed);
  const unsigned max_log = gt::env_log("PRESTAGE_GPU_TEST_MSM_MAX_LOG", 16);
  for (std::size_t n : sizes(max_log >= 14 ? max_log - 4 : std::min(max_log, 10u))) {
    check<msm::G2Curve, msm::G2Curve>(n, Scalars::Random, rng);
  }
}

// Window sizes other than the rule's, PoRep-shaped scalars (one huge bucket: several reduction
// levels) and points streamed from host memory in chunks.
BOOST_AUTO_TEST_CASE(g1_msm_windows_porep_and_streaming) {
  const uint64_t seed = gt::fresh_seed();
  BOOST_TEST_MESSAGE("seed " << seed);
  std::mt19937_64 rng(seed);
  const std::size_t n = std::size_t{1}
                        << std::min(14u, gt::env_log("PRESTAGE_GPU_TEST_MSM_MAX_LOG", 16));
  for (unsigned c : {2u, 5u, 13u, 17u})
    check<msm::G1Curve, msm::G1Curve>(n, Scalars::Random, rng, c);
  check<msm::G1Curve, msm::G1Curve>(n, Scalars::PorepShaped, rng);
  check<msm::G1Curve, msm::G1Curve>(n, Scalars::Random, rng, 0, n / 3 + 1);
  check<msm::G2Curve, msm::G2Curve>(n / 8, Scalars::PorepShaped, rng);
}

// Step 0 (the 0/1 split): all-zero scalars (the identity), only 0 and 1 (nothing left for the
// windows), PoRep-shaped scalars over few distinct points (a point added to itself in the
// 1-scalars' sum and in buckets), with the split on and off; G1 and G2.
BOOST_AUTO_TEST_CASE(msm_zero_one_scalars) {
  const uint64_t seed = gt::fresh_seed();
  BOOST_TEST_MESSAGE("seed " << seed);
  std::mt19937_64 rng(seed);
  const unsigned max_log = std::min(14u, gt::env_log("PRESTAGE_GPU_TEST_MSM_MAX_LOG", 16));
  for (std::size_t n : {std::size_t{1}, std::size_t{33}, std::size_t{1} << max_log}) {
    check<msm::G1Curve, msm::G1Curve>(n, Scalars::Zeros, rng);
    check<msm::G1Curve, msm::G1Curve>(n, Scalars::ZeroOne, rng);
    check<msm::G1Curve, msm::G1Curve>(n, Scalars::ZeroOne, rng, 0, 0, 3);
  }
  const std::size_t n = std::size_t{1} << max_log;
  for (bool split : {true, false}) {
    check<msm::G1Curve, msm::G1Curve>(n, Scalars::PorepShaped, rng, 0, 0, 5, split);
    check<msm::G2Curve, msm::G2Curve>(n / 16, Scalars::PorepShaped, rng, 0, 0, 5, split);
  }
  check<msm::G2Curve, msm::G2Curve>(n / 16, Scalars::ZeroOne, rng, 0, 0, 3);
  check<msm::G1Curve, msm::G1Curve>(n, Scalars::PorepShaped, rng, 0, n / 3 + 1);  // streamed
}

// Pairs that are not plain additions: P + (-P) (the identity) and P + P (a doubling) side by
// side in one bucket, G1 and G2, at window sizes that make buckets of many items.
BOOST_AUTO_TEST_CASE(msm_partnered_points) {
  const uint64_t seed = gt::fresh_seed();
  BOOST_TEST_MESSAGE("seed " << seed);
  std::mt19937_64 rng(seed);
  const std::size_t n = std::size_t{1}
                        << std::min(12u, gt::env_log("PRESTAGE_GPU_TEST_MSM_MAX_LOG", 16));
  for (Partner p : {Partner::Negated, Partner::Equal}) {
    for (unsigned c : {0u, 4u})
      check<msm::G1Curve, msm::G1Curve>(n, Scalars::Random, rng, c, 0, 0, true, p);
    check<msm::G1Curve, msm::G1Curve>(n, Scalars::PorepShaped, rng, 0, 0, 0, true, p);
    check<msm::G2Curve, msm::G2Curve>(n / 8, Scalars::Random, rng, 4, 0, 0, true, p);
  }
}

// Step 4's launch options: part lengths from 1 to beyond a window's buckets, blocks of 32 to
// 256, several window groups (only the last one takes reduce_block), both schemes
// (msm::DeviceReduce), G1 and G2; bad values are invalid_argument.
BOOST_AUTO_TEST_CASE(msm_reduction_variants) {
  const uint64_t seed = gt::fresh_seed();
  BOOST_TEST_MESSAGE("seed " << seed);
  std::mt19937_64 rng(seed);
  const std::size_t n = std::size_t{1}
                        << std::min(11u, gt::env_log("PRESTAGE_GPU_TEST_MSM_MAX_LOG", 16));
  auto p1 = random_points<msm::G1Curve::Affine, msm::G1Curve::Jacobian>(n, rng);
  auto p2 = random_points<msm::G2Curve::Affine, msm::G2Curve::Jacobian>(n / 4, rng);
  const auto s1 = make_scalars(n, Scalars::Random, rng);
  const auto s2 = make_scalars(n / 4, Scalars::Random, rng);
  const auto ref1 = msm::msm<msm::G1Curve>(p1, s1);
  const auto ref2 = msm::msm<msm::G2Curve>(p2, s2);
  g::SyncAllocator sync_alloc;
  g::StreamOrderedAllocator pool;
  g::Stream stream;
  auto d_p1 = gt::poisoned(sync_alloc, n, p1.data());
  auto d_s1 = gt::poisoned(sync_alloc, n, s1.data());
  auto d_p2 = gt::poisoned(sync_alloc, n / 4, p2.data());
  auto d_s2 = gt::poisoned(sync_alloc, n / 4, s2.data());
  struct Variant {
    unsigned block, part, c;
    std::size_t group_pairs;
  };
  for (const msm::DeviceReduce scheme :
       {msm::DeviceReduce::DoubleAdd, msm::DeviceReduce::SuffixScan}) {
    for (const Variant& v : {Variant{32, 1, 6, 0}, Variant{96, 8, 0, 0}, Variant{256, 64, 5, 0},
                             Variant{32, 8, 7, 3 * n}, Variant{64, 2, 0, n}, Variant{32, 0, 0, 0},
                             Variant{32, 4, 9, 0}, Variant{64, 32, 5, 0}}) {
      msm::DeviceOptions opt;
      opt.reduce_block = v.block;
      opt.reduce_part_len = v.part;
      opt.window_bits = v.c;
      opt.max_group_pairs = v.group_pairs;
      opt.reduce = scheme;
      const auto got1 =
          msm::on_device<msm::G1Curve>(d_p1.data(), d_s1.data(), n, pool, stream, opt);
      const auto got2 =
          msm::on_device<msm::G2Curve>(d_p2.data(), d_s2.data(), n / 4, pool, stream, opt);
      const std::string what = " block=" + std::to_string(v.block) +
                               " part=" + std::to_string(v.part) + " c=" + std::to_string(v.c) +
                               " group_pairs=" + std::to_string(v.group_pairs) +
                               " scan=" + std::to_string(scheme == msm::DeviceReduce::SuffixScan);
      BOOST_TEST((got1 == ref1), "G1 MSM" << what);
      BOOST_TEST((got2 == ref2), "G2 MSM" << what);
    }
  }
  for (unsigned block : {0u, 16u, 48u, 512u}) {
    msm::DeviceOptions opt;
    opt.reduce_block = block;
    opt.reduce_part_len = block == 0 ? 12 : 0;
    BOOST_CHECK_THROW(msm::on_device<msm::G1Curve>(d_p1.data(), d_s1.data(), n, pool, stream, opt),
                      std::invalid_argument);
  }
}

// msm::DeviceAccumulation::Auto's rule (gpu_msm.hpp): batch-affine for G2 from 2^20 to 2^23 scalars
// and for G1 from 2^17 to 2^27 (measured faster there: gpu/msm/DECISIONS.md #13), XYZZ
// elsewhere.
BOOST_AUTO_TEST_CASE(auto_accumulation_rule) {
  for (unsigned k = 0; k <= 28; ++k) {
    const std::size_t n = std::size_t{1} << k;
    BOOST_TEST(msm::device_auto_batch_affine(false, n) == (k >= 17 && k <= 27), "G1 2^" << k);
    BOOST_TEST(msm::device_auto_batch_affine(true, n) == (k >= 20 && k <= 23), "G2 2^" << k);
  }
  BOOST_TEST(msm::device_auto_batch_affine(true, (std::size_t{1} << 21) + 12345));
  BOOST_TEST(msm::device_auto_batch_affine(true, (std::size_t{1} << 22) + 1));
  BOOST_TEST(!msm::device_auto_batch_affine(true, (std::size_t{1} << 23) + 1));
  BOOST_TEST(msm::device_auto_batch_affine(false, (std::size_t{1} << 25) + 1));
  BOOST_TEST(!msm::device_auto_batch_affine(false, (std::size_t{1} << 17) - 1));
  BOOST_TEST(!msm::device_auto_batch_affine(false, (std::size_t{1} << 27) + 1));
}

// msm::DeviceOptions::max_workspace_bytes: Auto takes batch-affine only where its layout fits the
// cap, and the query reports the layout the call takes (the rule's sizes: the queries only, no
// MSM).
BOOST_AUTO_TEST_CASE(auto_accumulation_memory_cap) {
  const std::size_t n = std::size_t{1} << 20;  // batch-affine under Auto, both curves
  msm::DeviceOptions ba, xyzz, cap;
  ba.accumulation = msm::DeviceAccumulation::BatchAffine;
  xyzz.accumulation = msm::DeviceAccumulation::Xyzz;
  const std::size_t ba1 = msm::device_workspace_bytes<msm::G1Curve>(n, ba);
  const std::size_t xyzz1 = msm::device_workspace_bytes<msm::G1Curve>(n, xyzz);
  BOOST_TEST(ba1 > xyzz1);
  BOOST_TEST(msm::device_workspace_bytes<msm::G1Curve>(n) == ba1);  // no cap: batch-affine
  cap.max_workspace_bytes = ba1;                                    // fits exactly
  BOOST_TEST(msm::device_workspace_bytes<msm::G1Curve>(n, cap) == ba1);
  cap.max_workspace_bytes = ba1 - 1;  // one byte short: XYZZ
  BOOST_TEST(msm::device_workspace_bytes<msm::G1Curve>(n, cap) == xyzz1);
  cap.max_workspace_bytes = 1;  // XYZZ even where it does not fit either
  BOOST_TEST(msm::device_workspace_bytes<msm::G1Curve>(n, cap) == xyzz1);
  ba.max_workspace_bytes = 1;  // an explicit accumulation ignores the cap
  BOOST_TEST(msm::device_workspace_bytes<msm::G1Curve>(n, ba) == ba1);
  const std::size_t ba2 = msm::device_workspace_bytes<msm::G2Curve>(n);
  cap.max_workspace_bytes = ba2 - 1;
  BOOST_TEST(msm::device_workspace_bytes<msm::G2Curve>(n, cap) ==
             msm::device_workspace_bytes<msm::G2Curve>(n, xyzz));
  // Several window groups (scalars_once's n x 32 B canonical scalars): the cap drops them before
  // the batch-affine rounds, and from XYZZ where they would pass it.
  msm::DeviceOptions grp_ba = ba, grp_xyzz = xyzz, grp_cap;
  grp_ba.max_workspace_bytes = 0;
  grp_ba.max_group_pairs = grp_xyzz.max_group_pairs = grp_cap.max_group_pairs = 3 * n;
  const std::size_t gba = msm::device_workspace_bytes<msm::G1Curve>(n, grp_ba);
  const std::size_t gxyzz = msm::device_workspace_bytes<msm::G1Curve>(n, grp_xyzz);
  BOOST_TEST(msm::device_workspace_bytes<msm::G1Curve>(n, grp_cap) == gba);
  grp_cap.max_workspace_bytes = gba - 1;  // batch-affine, scalars converted per group
  BOOST_TEST(msm::device_workspace_bytes<msm::G1Curve>(n, grp_cap) == gba - 32 * n);
  grp_cap.max_workspace_bytes = gxyzz - 1;  // XYZZ without the canonical scalars
  BOOST_TEST(msm::device_workspace_bytes<msm::G1Curve>(n, grp_cap) == gxyzz - 32 * n);
  // Below the rule's range the cap changes nothing.
  cap.max_workspace_bytes = 1;
  BOOST_TEST(msm::device_workspace_bytes<msm::G1Curve>(1 << 12, cap) ==
             msm::device_workspace_bytes<msm::G1Curve>(1 << 12));
}

BOOST_AUTO_TEST_CASE(window_rule_is_sane) {
  // The rule's choice grows with n and stays within the supported range.
  unsigned prev = 0;
  for (unsigned k = 0; k <= 27; ++k) {
    const unsigned c = msm::device_window_bits(std::size_t{1} << k);
    BOOST_TEST(c >= 2u);
    BOOST_TEST(c <= 20u);
    BOOST_TEST(c >= prev);
    prev = c;
  }
  BOOST_TEST(msm::device_num_windows(16) == 16u);
  BOOST_TEST(msm::device_num_windows(15) == 18u);
}

// System: one caller-owned workspace (msm::DeviceWorkspace) reused by a sequence of MSMs of
// different curves, sizes, scalar shapes and accumulations, sized once as the maximum of their
// queries (msm::device_workspace_bytes), poisoned before the first call and never cleared between
// calls. Expectation: every sum equals the host reference; each call lays out exactly the queried
// bytes (msm::DeviceStats::workspace_bytes) and writes nothing past the workspace (a poisoned
// guard); results are written into poisoned host outputs. Tolerance: none (exact).
BOOST_AUTO_TEST_CASE(msm_workspace_reused_across_calls) {
  const uint64_t seed = gt::fresh_seed();
  BOOST_TEST_MESSAGE("seed " << seed);
  std::mt19937_64 rng(seed);
  const unsigned max_log = std::min(14u, gt::env_log("PRESTAGE_GPU_TEST_MSM_MAX_LOG", 16));
  struct Call {
    bool g2;
    std::size_t n;
    Scalars kind;
    msm::DeviceAccumulation acc;
  };
  const std::size_t big = std::size_t{1} << max_log;
  const Call calls[] = {{false, big, Scalars::Random, msm::DeviceAccumulation::Auto},
                        {true, big / 16, Scalars::Random, msm::DeviceAccumulation::BatchAffine},
                        {false, 7, Scalars::Random, msm::DeviceAccumulation::Auto},
                        {false, big / 2, Scalars::PorepShaped, msm::DeviceAccumulation::Auto},
                        {true, big / 8, Scalars::PorepShaped, msm::DeviceAccumulation::Xyzz},
                        {false, big / 4, Scalars::Random, msm::DeviceAccumulation::BatchAffine},
                        {true, 33, Scalars::ZeroOne, msm::DeviceAccumulation::Auto},
                        {false, big, Scalars::Random, msm::DeviceAccumulation::Xyzz}};
  const auto opts = [](const Call& c) {
    msm::DeviceOptions o;
    o.accumulation = c.acc;
    if (c.acc == msm::DeviceAccumulation::BatchAffine) o.affine_min_pairs = 64;  // rounds run
    if (c.n % 2 == 0 && c.kind != Scalars::Random) {  // overlap over groups of 2 windows
      o.overlap_sort = true;
      o.max_group_pairs = 2 * c.n;
    }
    return o;
  };
  std::size_t ws_bytes = 0;
  for (const Call& c : calls)
    ws_bytes = std::max(ws_bytes, c.g2 ? msm::device_workspace_bytes<msm::G2Curve>(c.n, opts(c))
                                       : msm::device_workspace_bytes<msm::G1Curve>(c.n, opts(c)));
  g::SyncAllocator sync_alloc;
  g::Stream stream;
  GuardedWorkspace gw(sync_alloc, ws_bytes);
  for (const Call& c : calls) {
    msm::DeviceStats stats;
    msm::DeviceOptions o = opts(c);
    o.stats = &stats;
    const std::string what = std::string(c.g2 ? "G2" : "G1") + " n=" + std::to_string(c.n) +
                             " kind=" + std::to_string(static_cast<int>(c.kind)) +
                             " acc=" + std::to_string(static_cast<int>(c.acc));
    const auto scalars = make_scalars(c.n, c.kind, rng);
    auto d_scalars = gt::poisoned(sync_alloc, c.n, scalars.data());
    if (c.g2) {
      const auto pts = random_points<ec::G2Affine, ec::G2Jacobian>(c.n, rng);
      auto d_pts = gt::poisoned(sync_alloc, c.n, pts.data());
      const auto ref = msm::msm<msm::G2Curve>(pts, scalars);
      ec::G2Jacobian got;
      std::memset(static_cast<void*>(&got), 0xFF, sizeof got);  // poisoned output
      got = msm::on_device<msm::G2Curve>(d_pts.data(), d_scalars.data(), c.n, gw.ws(), stream, o);
      BOOST_TEST((got == ref), "workspace reuse " << what);
      BOOST_TEST(stats.workspace_bytes == msm::device_workspace_bytes<msm::G2Curve>(c.n, opts(c)));
    } else {
      const auto pts = random_points<ec::G1Affine, ec::G1Jacobian>(c.n, rng);
      auto d_pts = gt::poisoned(sync_alloc, c.n, pts.data());
      const auto ref = msm::msm<msm::G1Curve>(pts, scalars);
      ec::G1Jacobian got;
      std::memset(static_cast<void*>(&got), 0xFF, sizeof got);  // poisoned output
      got = msm::on_device<msm::G1Curve>(d_pts.data(), d_scalars.data(), c.n, gw.ws(), stream, o);
      BOOST_TEST((got == ref), "workspace reuse " << what);
      BOOST_TEST(stats.workspace_bytes == msm::device_workspace_bytes<msm::G1Curve>(c.n, opts(c)));
    }
    BOOST_TEST(stats.workspace_bytes <= ws_bytes);
    BOOST_TEST(stats.batch_affine == (c.acc == msm::DeviceAccumulation::BatchAffine));
    BOOST_TEST(gw.guard_intact(), "wrote past the workspace: " << what);
  }
}

// System: the workspace's contract checks. Expectation: a workspace one byte short of the query,
// a null one, a misaligned one, and per-round batch-affine scratch on a workspace are
// std::invalid_argument before any work (the message names both sizes); the query is 0 for
// n = 0, grows with the split's index lists (split_01) and with the batch-affine scratch, and
// the allocating call's pool high-water is the workspace (one allocation), within the pool's
// rounding of 2 MiB.
BOOST_AUTO_TEST_CASE(msm_workspace_contract) {
  std::mt19937_64 rng(gt::fresh_seed());
  const std::size_t n = 1 << 12;
  const auto pts = random_points<ec::G1Affine, ec::G1Jacobian>(n, rng);
  const auto scalars = make_scalars(n, Scalars::Random, rng);
  g::SyncAllocator sync_alloc;
  g::StreamOrderedAllocator pool;
  g::Stream stream;
  auto d_pts = gt::poisoned(sync_alloc, n, pts.data());
  auto d_scalars = gt::poisoned(sync_alloc, n, scalars.data());
  const std::size_t need = msm::device_workspace_bytes<msm::G1Curve>(n);
  BOOST_TEST(need > 0u);
  BOOST_TEST(msm::device_workspace_bytes<msm::G1Curve>(0) == 0u);
  msm::DeviceOptions no_split;
  no_split.split_01 = false;
  BOOST_TEST(msm::device_workspace_bytes<msm::G1Curve>(n, no_split) + n * 4 <= need);
  msm::DeviceOptions ba;
  ba.accumulation = msm::DeviceAccumulation::BatchAffine;
  ba.affine_min_pairs = 64;
  BOOST_TEST(msm::device_workspace_bytes<msm::G1Curve>(n, ba) > need);
  // Several window groups: the canonical scalars (n x 32 B) unless scalars_once = false.
  msm::DeviceOptions groups;
  groups.max_group_pairs = 3 * n;
  msm::DeviceOptions groups_conv = groups;
  groups_conv.scalars_once = false;
  BOOST_TEST(msm::device_workspace_bytes<msm::G1Curve>(n, groups) ==
             msm::device_workspace_bytes<msm::G1Curve>(n, groups_conv) + n * 32);
  const std::size_t streamed_need = msm::device_streamed_workspace_bytes<msm::G1Curve>(n, n / 3);
  BOOST_TEST(streamed_need > 2 * (n / 3) * sizeof(ec::G1Affine));
  g::DeviceBuffer<unsigned char> buf(sync_alloc, std::max(need, streamed_need) + 256);
  bool named = false;
  try {
    (void)msm::on_device<msm::G1Curve>(d_pts.data(), d_scalars.data(), n, {buf.data(), need - 1},
                                       stream);
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    named = msg.find(std::to_string(need - 1)) != std::string::npos &&
            msg.find(std::to_string(need)) != std::string::npos;
  }
  BOOST_TEST(named, "too small a workspace: invalid_argument naming both sizes");
  BOOST_CHECK_THROW(msm::on_device<msm::G1Curve>(d_pts.data(), d_scalars.data(), n,
                                                 msm::DeviceWorkspace{nullptr, need}, stream),
                    std::invalid_argument);
  BOOST_CHECK_THROW(msm::on_device<msm::G1Curve>(d_pts.data(), d_scalars.data(), n,
                                                 {buf.data() + 128, need}, stream),
                    std::invalid_argument);
  msm::DeviceOptions per_round = ba;
  per_round.affine_persistent_scratch = false;
  BOOST_CHECK_THROW(msm::on_device<msm::G1Curve>(d_pts.data(), d_scalars.data(), n,
                                                 {buf.data(), need + 256}, stream, per_round),
                    std::invalid_argument);
  BOOST_CHECK_THROW(msm::on_device_streamed<msm::G1Curve>(pts.data(), d_scalars.data(), n, n / 3,
                                                          {buf.data(), streamed_need - 1}, stream),
                    std::invalid_argument);
  // Exactly the query is enough.
  const auto ref = msm::msm<msm::G1Curve>(pts, scalars);
  BOOST_TEST((msm::on_device<msm::G1Curve>(d_pts.data(), d_scalars.data(), n, {buf.data(), need},
                                           stream) == ref));
  // The allocating call: its pool high-water is the declared workspace (one allocation).
  PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(stream));
  pool.trim(0);
  std::uint64_t zero = 0, used_high = 0;
  PRESTAGE_CUDA_CHECK(cudaMemPoolSetAttribute(pool.pool(), cudaMemPoolAttrUsedMemHigh, &zero));
  BOOST_TEST(
      (msm::on_device<msm::G1Curve>(d_pts.data(), d_scalars.data(), n, pool, stream) == ref));
  PRESTAGE_CUDA_CHECK(cudaMemPoolGetAttribute(pool.pool(), cudaMemPoolAttrUsedMemHigh, &used_high));
  BOOST_TEST(used_high >= need);
  BOOST_TEST(used_high <= need + (std::size_t{2} << 20));
}

// System: the fixed-base MSM (gpu/msm/gpu_msm_fixed_base.hpp): a table of the W copies
// 2^(c j) P_i built on the device, then one window of n W pairs over one shared bucket set.
// Expectation: the host reference MSM's group element, exactly, on every path: the default
// options (c by the rule; at these sizes no round reaches affine_min_pairs: XYZZ levels), batch-
// affine rounds down to 64 pair additions, XYZZ only, and slices far smaller than the pairs
// (max_group_pairs: buckets cut by slice boundaries, summed in two slices). Inputs: random points
// with the point at infinity (index 3) and a repeat (index 5), or only 7 distinct points
// (repeated points in one bucket: doublings in the rounds); scalars 0, 1 and r - 1 among random
// ones, and all-zero scalars (no pairs: the identity). The device buffers (points, scalars, the
// table, the workspace) are poisoned first; the workspace is exactly the queried size with a
// poisoned guard behind it that must stay intact; each path runs twice on the same workspace; the
// host output is poisoned before each call. Sizes: 2^10, 2^12 + 3 and 2^16 for G1 (2^16 only
// when PRESTAGE_GPU_TEST_MSM_MAX_LOG >= 16, the default), 2^10 and 2^12 + 1 for G2, so the case
// stays cheap under compute-sanitizer.
namespace {
template <class Curve, class HostCurve>
void check_fixed(std::size_t n, unsigned c, std::mt19937_64& rng, std::size_t distinct = 0,
                 Scalars kind = Scalars::Random) {
  using Affine = typename Curve::Affine;
  using Jacobian = typename Curve::Jacobian;
  auto points = random_points<Affine, Jacobian>(distinct > 0 ? std::min(distinct, n) : n, rng);
  for (std::size_t i = points.size(); i < n; ++i) points.push_back(points[i % distinct]);
  // More bases at infinity (the packed table keeps their flags in a bitmap): at a word's ends
  // (31, 32) and the last, so that the copies' bits start inside a word when 32 does not divide n.
  if (n > 64) points[31] = points[32] = points[n - 1] = Affine::identity();
  const auto scalars = make_scalars(n, kind, rng);
  const Jacobian ref = msm::msm<HostCurve>(points, scalars);
  g::SyncAllocator sync_alloc;
  g::StreamOrderedAllocator pool;
  g::Stream stream;
  auto d_points = gt::poisoned(sync_alloc, n, points.data());
  auto d_scalars = gt::poisoned(sync_alloc, n, scalars.data());
  const unsigned cc = c != 0 ? c : msm::fixed_base_window_bits(false, n);
  const std::size_t table_bytes = msm::base_table_bytes<Curve>(n, cc);
  auto d_table = gt::poisoned<unsigned char>(sync_alloc, table_bytes);
  const auto table = msm::build_base_table<Curve>(d_points.data(), n, c, d_table.data(),
                                                  table_bytes, pool, stream);
  BOOST_TEST(table.c == cc);
  BOOST_TEST(table.windows == msm::device_num_windows(cc));
  BOOST_TEST(table.n == n);
  msm::DeviceOptions affine64;
  affine64.affine_min_pairs = 64;
  msm::DeviceOptions sliced = affine64;
  sliced.max_group_pairs = n + 77;  // W slices or so, cut inside buckets
  msm::DeviceOptions xyzz;
  xyzz.accumulation = msm::DeviceAccumulation::Xyzz;
  msm::DeviceOptions xyzz_sliced = xyzz;
  xyzz_sliced.max_group_pairs = 3 * n + 5;
  // Knobs on the table (gpu/msm/DECISIONS.md #17, #28, #29): round 0's lean add through the
  // packed entries (high and low shapes), the older chains (K = 8) with slices, the eager round-0
  // reads.
  msm::DeviceOptions lean3 = affine64;
  lean3.affine_lean_round0 = 3;
  msm::DeviceOptions lean2 = sliced;
  lean2.affine_lean_round0 = 2;
  msm::DeviceOptions k8 = sliced;  // kAffinePerThread's chains (G1's fixed-base default K is 24)
  k8.affine_per_thread = 8;
  msm::DeviceOptions eager = affine64;  // round 0's entries read before their bits (off by default)
  eager.affine_eager_round0 = true;
  msm::DeviceOptions eager_sliced = sliced;
  eager_sliced.affine_eager_round0 = true;
  const std::pair<const char*, msm::DeviceOptions> paths[] = {
      {"default", {}},
      {"batch-affine >= 64 pairs", affine64},
      {"batch-affine, slices of n + 77 pairs", sliced},
      {"batch-affine, lean round 0 (3 blocks)", lean3},
      {"batch-affine, slices, lean round 0 (2 blocks)", lean2},
      {"batch-affine, slices, K = 8", k8},
      {"batch-affine, eager round 0", eager},
      {"batch-affine, slices, eager round 0", eager_sliced},
      {"xyzz", xyzz},
      {"xyzz, slices of 3n + 5 pairs", xyzz_sliced}};
  for (const auto& [what, opt0] : paths) {
    msm::DeviceStats stats;
    msm::DeviceOptions opt = opt0;
    opt.stats = &stats;
    GuardedWorkspace ws(sync_alloc, msm::fixed_base_workspace_bytes<Curve>(n, cc, opt));
    for (int rep = 0; rep < 2; ++rep) {
      Jacobian got;
      std::memset(static_cast<void*>(&got), 0xFF, sizeof got);  // poisoned output
      got = msm::on_device_fixed_base<Curve>(table, d_scalars.data(), n, ws.ws(), stream, opt);
      BOOST_TEST((got == ref), "fixed-base n=" << n << " c=" << cc << " " << what << " rep " << rep
                                               << " distinct=" << distinct);
    }
    BOOST_TEST(ws.guard_intact(), "fixed-base workspace guard, " << what);
    BOOST_TEST(stats.window_bits == cc);
    BOOST_TEST(stats.workspace_bytes == ws.bytes);
    if (kind == Scalars::Random && opt.max_group_pairs != 0)
      BOOST_TEST(stats.window_groups > 1u, "several slices, " << what);
    if (kind == Scalars::Random && opt.affine_min_pairs == 64)
      BOOST_TEST(stats.affine_adds > 0u, "batch-affine rounds ran, " << what);
  }
}
}  // namespace

BOOST_AUTO_TEST_CASE(fixed_base_msm_matches_host_reference) {
  const uint64_t seed = gt::fresh_seed();
  BOOST_TEST_MESSAGE("seed " << seed);
  std::mt19937_64 rng(seed);
  check_fixed<msm::G1Curve, msm::G1Curve>(1 << 10, 0, rng);
  check_fixed<msm::G1Curve, msm::G1Curve>((1 << 12) + 3, 9, rng);
  check_fixed<msm::G1Curve, msm::G1Curve>((1 << 12) + 3, 13, rng, 7);
  check_fixed<msm::G1Curve, msm::G1Curve>(1 << 10, 8, rng, 0, Scalars::Zeros);
  if (gt::env_log("PRESTAGE_GPU_TEST_MSM_MAX_LOG", 16) >= 16)
    check_fixed<msm::G1Curve, msm::G1Curve>(1 << 16, 0, rng);
  check_fixed<msm::G2Curve, msm::G2Curve>(1 << 10, 0, rng);
  check_fixed<msm::G2Curve, msm::G2Curve>((1 << 12) + 1, 11, rng, 5);
}

// System: the fixed-base MSM's contract (gpu/msm/gpu_msm_fixed_base.hpp). Expectation: a table
// that does not match the call (wrong n, windows not W(c), c out of range, a null table), a
// window_bits option other than the table's c, a table buffer or a workspace smaller than their
// queries, or c out of [2, 24] in the build give std::invalid_argument; n = 0 gives the identity;
// the window rule picks c in [2, 24], growing with n. Tolerance: none.
BOOST_AUTO_TEST_CASE(fixed_base_msm_contract) {
  std::mt19937_64 rng(gt::fresh_seed());
  const std::size_t n = 1 << 10;
  const unsigned c = 10;
  const auto pts = random_points<ec::G1Affine, ec::G1Jacobian>(n, rng);
  const auto scalars = make_scalars(n, Scalars::Random, rng);
  g::SyncAllocator sync_alloc;
  g::Stream stream;
  auto d_pts = gt::poisoned(sync_alloc, n, pts.data());
  auto d_scalars = gt::poisoned(sync_alloc, n, scalars.data());
  const std::size_t tb = msm::base_table_bytes<msm::G1Curve>(n, c);
  // Packed entries (x, y: 96 B) padded to 256 B, then the infinity bitmap.
  static_assert(sizeof(msm::DeviceBaseTable<msm::G1Curve>::Entry) == 96);
  static_assert(sizeof(msm::DeviceBaseTable<msm::G2Curve>::Entry) == 192);
  const std::size_t entries = msm::device_num_windows(c) * n;
  BOOST_TEST(tb == (entries * 96 + 255) / 256 * 256 + (entries + 31) / 32 * 4);
  g::DeviceBuffer<unsigned char> table_buf(sync_alloc, tb + 256);
  BOOST_CHECK_THROW(msm::build_base_table<msm::G1Curve>(d_pts.data(), n, c, table_buf.data() + 32,
                                                        tb, sync_alloc, stream),
                    std::invalid_argument);
  BOOST_CHECK_THROW(msm::build_base_table<msm::G1Curve>(d_pts.data(), n, c, table_buf.data(),
                                                        tb - 1, sync_alloc, stream),
                    std::invalid_argument);
  BOOST_CHECK_THROW(msm::build_base_table<msm::G1Curve>(d_pts.data(), n, 25, table_buf.data(), tb,
                                                        sync_alloc, stream),
                    std::invalid_argument);
  BOOST_CHECK_THROW(msm::base_table_bytes<msm::G1Curve>(n, 1), std::invalid_argument);
  const auto table = msm::build_base_table<msm::G1Curve>(d_pts.data(), n, c, table_buf.data(), tb,
                                                         sync_alloc, stream);
  const std::size_t need = msm::fixed_base_workspace_bytes<msm::G1Curve>(n, c);
  BOOST_TEST(msm::fixed_base_workspace_bytes<msm::G1Curve>(0, c) == 0u);
  g::DeviceBuffer<unsigned char> ws(sync_alloc, need);
  const msm::DeviceWorkspace w{ws.data(), need};
  auto bad = table;
  bad.n = n - 1;
  BOOST_CHECK_THROW(msm::on_device_fixed_base<msm::G1Curve>(bad, d_scalars.data(), n, w, stream),
                    std::invalid_argument);
  bad = table;
  bad.c = c + 1;  // windows no longer W(c)... or the same W: the call must still refuse it
  BOOST_CHECK_THROW(msm::on_device_fixed_base<msm::G1Curve>(bad, d_scalars.data(), n, w, stream),
                    std::invalid_argument);
  bad = table;
  bad.windows = table.windows + 1;
  BOOST_CHECK_THROW(msm::on_device_fixed_base<msm::G1Curve>(bad, d_scalars.data(), n, w, stream),
                    std::invalid_argument);
  bad = table;
  bad.c = 30;
  BOOST_CHECK_THROW(msm::on_device_fixed_base<msm::G1Curve>(bad, d_scalars.data(), n, w, stream),
                    std::invalid_argument);
  bad = table;
  bad.data = nullptr;
  BOOST_CHECK_THROW(msm::on_device_fixed_base<msm::G1Curve>(bad, d_scalars.data(), n, w, stream),
                    std::invalid_argument);
  bad = table;
  bad.inf_bits = nullptr;
  BOOST_CHECK_THROW(msm::on_device_fixed_base<msm::G1Curve>(bad, d_scalars.data(), n, w, stream),
                    std::invalid_argument);
  msm::DeviceOptions other_c;
  other_c.window_bits = c + 2;
  BOOST_CHECK_THROW(
      msm::on_device_fixed_base<msm::G1Curve>(table, d_scalars.data(), n, w, stream, other_c),
      std::invalid_argument);
  BOOST_CHECK_THROW(msm::on_device_fixed_base<msm::G1Curve>(table, d_scalars.data(), n,
                                                            {ws.data(), need - 1}, stream),
                    std::invalid_argument);
  const auto ref = msm::msm<msm::G1Curve>(pts, scalars);
  BOOST_TEST(
      (msm::on_device_fixed_base<msm::G1Curve>(table, d_scalars.data(), n, w, stream) == ref));
  msm::DeviceOptions same_c;
  same_c.window_bits = c;
  BOOST_TEST((msm::on_device_fixed_base<msm::G1Curve>(table, d_scalars.data(), n, w, stream,
                                                      same_c) == ref));
  const msm::DeviceBaseTable<msm::G1Curve> empty{nullptr, 0, c, msm::device_num_windows(c)};
  BOOST_TEST(msm::on_device_fixed_base<msm::G1Curve>(empty, nullptr, 0, {}, stream).is_identity());
  // The default slices (fixed_slice_pairs, kFixedSliceCapG1): G1 batch-affine, the n W pairs in
  // the fewest even slices of at most 2^28; the workspace query (no allocation) reports what they
  // need.
  const auto fixed_ws = [](std::size_t nn, unsigned cc, std::size_t slice) {
    msm::DeviceOptions o;
    o.max_group_pairs = slice;
    return msm::fixed_base_workspace_bytes<msm::G1Curve>(nn, cc, o);
  };
  const std::size_t n24 = std::size_t{1} << 24, n25 = n24 << 1, n26 = n24 << 2;
  BOOST_TEST(fixed_ws(n24, 20, 0) == fixed_ws(n24, 20, 13 * n24));  // one slice
  BOOST_TEST(fixed_ws(n24, 20, 0) > fixed_ws(n24, 20, std::size_t{1} << 26));
  BOOST_TEST(fixed_ws(n25, 20, 0) == fixed_ws(n25, 20, 13 * n25 / 2));  // two even slices
  BOOST_TEST(fixed_ws(n25, 20, 0) < fixed_ws(n25, 20, std::size_t{1} << 28));
  BOOST_TEST(fixed_ws(n26, 22, 0) == fixed_ws(n26, 22, std::size_t{1} << 28));  // 3 of 2^28
  msm::DeviceOptions xyzz_only;
  xyzz_only.accumulation =
      msm::DeviceAccumulation::Xyzz;  // msm::on_device's group (2^25 pairs), not the G1 slices
  msm::DeviceOptions xyzz_group = xyzz_only;
  xyzz_group.max_group_pairs = std::size_t{1} << 25;
  BOOST_TEST(msm::fixed_base_workspace_bytes<msm::G1Curve>(n24, 20, xyzz_only) ==
             msm::fixed_base_workspace_bytes<msm::G1Curve>(n24, 20, xyzz_group));
  unsigned prev = 2;
  for (unsigned k = 4; k <= 28; k += 2) {
    const unsigned ck = msm::fixed_base_window_bits(false, std::size_t{1} << k);
    BOOST_TEST(ck >= prev);
    BOOST_TEST(ck <= 24u);
    prev = ck;
  }
}
