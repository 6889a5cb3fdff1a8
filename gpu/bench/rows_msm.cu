// gpu_bench MSM rows (gpu/msm/gpu_msm.hpp): G1 and G2 MSMs at the default accumulation and the
// other one, the PoRep-shaped G1 MSM, window sizes around the rule, and sweeps of the
// batch-affine and occupancy knobs around their defaults (only when named).
//
// Every row: points and scalars on the device, the workspace allocated once for the row and
// reused by every call (msm::DeviceWorkspace, as a prover holds it), one warm-up, then timed calls;
// then 3 calls with the phase events (msm::DeviceStats) and one with the default pool's high-water
// marks reset. Its sum is compared with one XYZZ call at the default options on the same inputs
// (checked against the host reference by gpu_msm_test); a mismatch makes gpu_bench exit 3.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpu/bench/bench_common.hpp"
#include "gpu/bench/rows_msm.cuh"
#include "gpu/ec/sample_points.hpp"
#include "gpu/msm/gpu_msm.hpp"

namespace prestage::bench {

namespace g = prestage::gpu;
using ff::Fr;

const MsmBases& msm_bases() {
  static const MsmBases bases = [] {
    const auto t0 = std::chrono::steady_clock::now();
    MsmBases b;
    std::mt19937_64 rng1(1);
    b.g1 = ec::random_walk_points<ec::G1Affine, ec::G1Jacobian>(std::size_t{1} << 18, rng1);
    std::mt19937_64 rng2(2);
    b.g2 = ec::random_walk_points<ec::G2Affine, ec::G2Jacobian>(std::size_t{1} << 16, rng2);
    std::printf("host point generation: %.1f s\n",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return b;
  }();
  return bases;
}

namespace {

// One MSM row's knobs (0 = the default); the row's name gets a suffix for each one set.
struct MsmRow {
  unsigned log_n = 0;
  int scalar_kind = 0;       // random_fr's kind: 0 uniform, 1 PoRep-shaped
  unsigned window_bits = 0;  // _cC
  bool split_01 = true;      // false: no step-0 split (the row's name says so)
  unsigned min_blocks = 0;   // _mbB (level-0 occupancy)
  msm::DeviceAccumulation accumulation = msm::DeviceAccumulation::Xyzz;  // BatchAffine: _affine
  std::size_t affine_min_pairs = 0;                                      // _aminP
  unsigned affine_k = 0;                                                 // _kK
  unsigned affine_k2 = 0;                                                // _kkK2
  std::size_t group_pairs = 0;                                           // _grpP
  std::string suffix;
};

template <class Curve>
void bench_msm(Context& ctx, const std::string& name,
               const std::vector<typename Curve::Affine>& base, double fq_per_fp,
               const MsmRow& spec) {
  using Affine = typename Curve::Affine;
  const Ceilings& cl = ctx.cl;
  cudaStream_t stream = ctx.stream;
  const unsigned log_n = spec.log_n;
  g::SyncAllocator sync;
  g::StreamOrderedAllocator pool;
  const std::size_t n = std::size_t{1} << log_n;
  g::DeviceBuffer<Affine> pts(sync, n, stream);
  g::DeviceBuffer<Fr> sc(sync, n, stream);
  for (std::size_t first = 0; first < n; first += base.size()) {
    const std::size_t k = std::min(base.size(), n - first);
    PRESTAGE_CUDA_CHECK(cudaMemcpyAsync(pts.data() + first, base.data(), k * sizeof(Affine),
                                        cudaMemcpyHostToDevice, stream));
  }
  random_fr(sc.data(), n, 77 + log_n, spec.scalar_kind, stream);
  PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(stream));
  msm::DeviceStats stats;
  msm::DeviceOptions opt;
  opt.window_bits = spec.window_bits;
  opt.split_01 = spec.split_01;
  opt.accumulate_min_blocks = spec.min_blocks;
  opt.accumulation = spec.accumulation;
  opt.affine_min_pairs = spec.affine_min_pairs;
  opt.affine_per_thread = spec.affine_k;
  opt.affine_per_inversion = spec.affine_k2;
  opt.max_group_pairs = spec.group_pairs;
  // The MSM's workspace: allocated once for the row and reused by every call.
  const std::size_t ws_bytes = msm::device_workspace_bytes<Curve>(n, opt);
  g::DeviceBuffer<unsigned char> ws_buf(sync, ws_bytes, stream);
  const auto msm = [&] {
    return msm::on_device<Curve>(pts.data(), sc.data(), n,
                                 msm::DeviceWorkspace{ws_buf.data(), ws_buf.bytes()}, stream, opt);
  };
  const int reps = log_n >= 26 ? 3 : log_n >= 24 ? 5 : 9;
  // Phases: 3 more runs with the stats' CUDA events (timed runs carry no extra events).
  constexpr int kPhases = 15;
  std::vector<double> phase[kPhases];
  opt.stats = nullptr;
  auto ms = time_runs(stream, 1, reps, [&] { (void)msm(); });
  opt.stats = &stats;
  for (int k = 0; k < 3; ++k) {
    (void)msm();
    // "affine": the batch-affine rounds but their invert kernels; then its parts (gather,
    // map + prep, add, the rest).
    const double p[kPhases] = {
        stats.classify_ms,
        stats.ones_ms,
        stats.digits_ms,
        stats.sort_ms,
        stats.affine_ms + stats.affine_gather_ms + stats.affine_map_ms + stats.affine_prep_ms +
            stats.affine_add_ms,
        stats.affine_invert_ms,
        stats.accumulate_ms,
        stats.reduce_ms,
        stats.host_ms,
        stats.affine_gather_ms,
        stats.affine_map_ms + stats.affine_prep_ms,  // "affine_prep": map + prep
        stats.affine_add_ms,
        stats.scratch_ms,
        stats.affine_map_ms,
        stats.scalars_ms};
    for (int q = 0; q < kPhases; ++q) phase[q].push_back(p[q]);
  }
  // Device memory of one MSM call beyond its workspace: the stream-ordered pool holds nothing
  // but what the call allocates itself (points, scalars and workspace come from cudaMalloc), so
  // the pool's high-water marks over one call, reset just before it, are that memory (used) and
  // what the pool reserved for it.
  std::uint64_t pool_used_high = 0, pool_reserved_high = 0;
  decltype(msm()) result{};
  {
    PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(stream));
    pool.trim(0);
    std::uint64_t zero = 0;
    PRESTAGE_CUDA_CHECK(cudaMemPoolSetAttribute(pool.pool(), cudaMemPoolAttrUsedMemHigh, &zero));
    PRESTAGE_CUDA_CHECK(
        cudaMemPoolSetAttribute(pool.pool(), cudaMemPoolAttrReservedMemHigh, &zero));
    result = msm();
    PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(stream));
    PRESTAGE_CUDA_CHECK(
        cudaMemPoolGetAttribute(pool.pool(), cudaMemPoolAttrUsedMemHigh, &pool_used_high));
    PRESTAGE_CUDA_CHECK(
        cudaMemPoolGetAttribute(pool.pool(), cudaMemPoolAttrReservedMemHigh, &pool_reserved_high));
  }
  // Result check: the sizes here are too large for the host reference, so every row's result is
  // compared with one XYZZ run of the same inputs at the default options (points and scalars
  // depend only on the curve, log_n and scalar_kind). Window size, accumulation, split and group
  // size change the computation, never the sum.
  static std::vector<std::pair<std::pair<unsigned, int>, decltype(result)>> reference;
  const auto key = std::make_pair(log_n, spec.scalar_kind);
  auto ref = std::find_if(reference.begin(), reference.end(),
                          [&](const auto& e) { return e.first == key; });
  if (ref == reference.end()) {
    msm::DeviceOptions xyzz_opt;
    xyzz_opt.accumulation = msm::DeviceAccumulation::Xyzz;
    reference.emplace_back(key,
                           msm::on_device<Curve>(pts.data(), sc.data(), n, pool, stream, xyzz_opt));
    ref = reference.end() - 1;
  }
  const bool result_ok = result == ref->second;
  if (!result_ok) ++ctx.msm_result_mismatches;
  // Mixed XYZZ addition (madd-2008-s): 8M + 2S, one per item left for XYZZ level 0; XYZZ
  // addition (add-2008-s): 12M + 2S; a bucket costs 2 additions in the running sum. Batch-affine
  // rounds (gpu/msm/affine_batch.hpp): 3 per output (running product, 2 in the walk back), 3 per
  // pair addition (1S + 2M), 3 per thread product (second-level trick) and, with Fermat
  // inversions (msm::DeviceOptions::affine_fermat), 608 per inversion (380 S + 228 M; Fq2: + 4 for
  // the norm and the conjugate). The default binary-GCD inversions do no Montgomery products:
  // the floor leaves them out (it stays a lower bound; Fq2's 4 counted).
  // fq_per_fp: Fq products per base-field product (Fq2: 3).
  const double buckets = double(stats.windows) * std::ldexp(1.0, stats.window_bits - 1);
  const double mixed = double(stats.nonzero_digits) +
                       (stats.split_01 ? double(stats.one_scalars) : 0.0) -
                       double(stats.affine_adds);
  const double inversion = (fq_per_fp > 1.0 ? 4.0 : 0.0) + (opt.affine_fermat ? 608.0 : 0.0);
  const double muls =
      fq_per_fp *
          (10.0 * mixed + 14.0 * (stats.partial_adds + 2 * buckets) +
           3.0 * (stats.affine_outputs + stats.affine_adds + stats.affine_thread_products)) +
      inversion * stats.affine_inversions;
  const double mem = double(n) * (sizeof(Affine) + sizeof(Fr)) / cl.bandwidth_Bps;
  // Rows name an explicit BatchAffine (_affine); Auto (the default) and Xyzz take no suffix (the
  // callers name an explicit Xyzz by `suffix` where Auto would pick BatchAffine).
  const bool xyzz = spec.accumulation != msm::DeviceAccumulation::BatchAffine;
  json r =
      row(name + (xyzz ? "" : "_affine") +
              (spec.window_bits ? "_c" + std::to_string(spec.window_bits) : "") +
              (spec.min_blocks ? "_mb" + std::to_string(spec.min_blocks) : "") +
              (spec.affine_min_pairs ? "_amin" + std::to_string(spec.affine_min_pairs) : "") +
              (spec.affine_k ? "_k" + std::to_string(spec.affine_k) : "") +
              (spec.affine_k2 ? "_kk" + std::to_string(spec.affine_k2) : "") +
              (spec.group_pairs ? "_grp" + std::to_string(spec.group_pairs) : "") + spec.suffix,
          n, ms, mem, muls / cl.fq_mul_per_s,
          "memory: read n points + n scalars once; compute: Fq products of the additions "
          "this run did (10 per item left for the XYZZ mixed additions, 14 per reduction "
          "addition, 2 x 14 per bucket; batch-affine rounds: 3 per output, 3 per pair "
          "addition, 3 per thread product, 608 per Fermat inversion, none for the binary "
          "ones) at the measured Fq rate");
  r["result_matches_xyzz_default"] = result_ok;
  if (!result_ok)
    std::printf(
        "    RESULT MISMATCH: this row's MSM differs from the XYZZ default's on the same "
        "inputs\n");
  r["accumulation"] = stats.batch_affine ? "batch_affine" : "xyzz";
  r["reduce_scheme"] = opt.reduce == msm::DeviceReduce::SuffixScan  ? "suffix_scan"
                       : opt.reduce == msm::DeviceReduce::DoubleAdd ? "double_add"
                                                                    : "auto";
  r["affine_persistent_scratch"] = opt.affine_persistent_scratch;
  r["affine_scratch_B"] = stats.affine_scratch_bytes;
  r["workspace_B"] = ws_bytes;
  r["workspace_reused"] = true;
  r["workspace_how"] =
      "msm::device_workspace_bytes(n, options); reused: one cudaMalloc for the row, every call on "
      "it (the pool high-water is then 0); per call (_alloc): from the default pool each call";
  r["pool_retained"] = false;
  r["pool_used_high_B"] = pool_used_high;
  r["pool_reserved_high_B"] = pool_reserved_high;
  r["pool_how"] =
      "cudaMemPoolAttrUsedMemHigh / ReservedMemHigh of the default pool over one msm::on_device "
      "call "
      "(pool trimmed and marks reset before it; the pool holds only the MSM's scratch)";
  r["affine_adds"] = stats.affine_adds;
  r["affine_outputs"] = stats.affine_outputs;
  r["affine_thread_products"] = stats.affine_thread_products;
  r["affine_inversions"] = stats.affine_inversions;
  r["affine_rounds"] = stats.affine_rounds;
  r["window_bits"] = stats.window_bits;
  r["windows"] = stats.windows;
  r["nonzero_digits"] = stats.nonzero_digits;
  r["partial_adds"] = stats.partial_adds;
  r["levels"] = stats.max_levels;
  r["split_01"] = stats.split_01;
  r["scalars_once"] = stats.scalars_once;
  r["zero_scalars"] = stats.zero_scalars;
  r["one_scalars"] = stats.one_scalars;
  static const char* names[kPhases] = {"classify", "ones",          "digits",      "sort",
                                       "affine",   "affine_invert", "accumulate",  "reduce",
                                       "host",     "affine_gather", "affine_prep", "affine_add",
                                       "scratch",  "affine_map",    "scalars"};
  json ph;
  std::printf("    c=%u phases (median of 3 runs with events, ms):", stats.window_bits);
  for (int q = 0; q < kPhases; ++q) {
    ph[names[q]] = median(phase[q]);
    std::printf(" %s %.2f", names[q], median(phase[q]));
  }
  std::printf(
      "\n    workspace %.3f GiB (reused); pool high-water (one call): used %.3f GiB (%.1f "
      "B/point), reserved %.3f GiB; %s, persistent affine scratch %.3f GiB\n",
      double(ws_bytes) / (1u << 30), double(pool_used_high) / (1u << 30),
      double(pool_used_high) / double(n), double(pool_reserved_high) / (1u << 30),
      stats.batch_affine ? "batch-affine" : "xyzz",
      double(stats.affine_scratch_bytes) / (1u << 30));
  r["phases_ms"] = ph;
  r["phases_how"] =
      "CUDA events between phases on the MSM stream (host waits count towards the "
      "next phase), host Horner by the host clock; median of 3 runs after the "
      "timed ones";
  ctx.rows.push_back(r);
}

constexpr auto kAffine = msm::DeviceAccumulation::BatchAffine;
constexpr auto kXyzz = msm::DeviceAccumulation::Xyzz;
constexpr auto kAuto = msm::DeviceAccumulation::Auto;

void g1(Context& ctx, const std::string& name, const MsmRow& spec) {
  bench_msm<msm::G1Curve>(ctx, name, msm_bases().g1, 1.0, spec);
}
void g2(Context& ctx, const std::string& name, const MsmRow& spec) {
  bench_msm<msm::G2Curve>(ctx, name, msm_bases().g2, 3.0, spec);
}

// The pair of rows at 2^k: the default accumulation (msm::DeviceAccumulation::Auto,
// msm::device_auto_batch_affine) and the other one: `name`_affine where the default is XYZZ,
// `name`_xyzz where it is batch-affine.
void default_and_other(Context& ctx, bool is_g2, const std::string& name, unsigned k) {
  const auto run = is_g2 ? g2 : g1;
  run(ctx, name, {.log_n = k, .accumulation = kAuto});
  const bool default_affine = msm::device_auto_batch_affine(is_g2, std::size_t{1} << k);
  run(ctx, name,
      {.log_n = k,
       .accumulation = default_affine ? kXyzz : kAffine,
       .suffix = default_affine ? "_xyzz" : ""});
}

const RegisterRows kRows[] = {
    {{"g1_msm", "msm",
      "G1 MSM 2^20/22/24/26/27 (27 not with --quick): default accumulation and the other one", 30,
      [](Context& ctx) {
        for (unsigned k : {20u, 22u, 24u, 26u, 27u})
          if (k <= ctx.opt.max_log && !(k == 27 && ctx.opt.quick))
            default_and_other(ctx, false, "g1_msm", k);
      }}},
    {{"g2_msm", "msm", "G2 MSM 2^20/22: default accumulation and the other one", 40,
      [](Context& ctx) {
        for (unsigned k : {20u, 22u})
          if (k <= ctx.opt.max_log) default_and_other(ctx, true, "g2_msm", k);
      }}},
    {{"msm_auto_rule", "",
      "sweep: both accumulations next to the Auto rule's bounds (G2 2^18/19/21/23, G1 2^23/25)", 50,
      [](Context& ctx) {
        if (ctx.opt.quick) return;
        for (unsigned k : {18u, 19u, 21u, 23u})
          if (k <= ctx.opt.max_log) default_and_other(ctx, true, "g2_msm", k);
        for (unsigned k : {23u, 25u})
          if (k <= ctx.opt.max_log) default_and_other(ctx, false, "g1_msm", k);
      }}},
    {{"msm_affine_min", "",
      "sweep: batch-affine round threshold 2^16/2^20/2^22 pairs at G1 2^24 and G2 2^20", 60,
      [](Context& ctx) {
        if (ctx.opt.quick) return;
        for (std::size_t amin :
             {std::size_t{1} << 16, std::size_t{1} << 20, std::size_t{1} << 22}) {
          if (ctx.opt.max_log >= 24)
            g1(ctx, "g1_msm", {.log_n = 24, .accumulation = kAffine, .affine_min_pairs = amin});
          if (ctx.opt.max_log >= 20)
            g2(ctx, "g2_msm", {.log_n = 20, .accumulation = kAffine, .affine_min_pairs = amin});
        }
      }}},
    {{"porep", "msm",
      "G1 MSM 2^27, PoRep-shaped scalars: default, XYZZ, XYZZ without the 0/1 split (not "
      "with --quick)",
      70,
      [](Context& ctx) {
        if (ctx.opt.max_log < 27 || ctx.opt.quick) return;
        const std::string name = "g1_msm_porep_shaped";
        g1(ctx, name, {.log_n = 27, .scalar_kind = 1, .accumulation = kAuto});
        g1(ctx, name, {.log_n = 27, .scalar_kind = 1, .accumulation = kXyzz, .suffix = "_xyzz"});
        g1(ctx, name + "_nosplit", {.log_n = 27, .scalar_kind = 1, .split_01 = false});
      }}},
    {{"g2_porep", "msm",
      "G2 MSM 2^20/22/24/26/27, PoRep-shaped scalars, XYZZ (B_G2 on the GPU: the msm_g2_porep "
      "curve; 2^24 and up not with --quick)",
      72,
      [](Context& ctx) {
        for (unsigned k : {20u, 22u, 24u, 26u, 27u})
          if (k <= ctx.opt.max_log && !(k >= 24 && ctx.opt.quick))
            g2(ctx, "g2_msm_porep_shaped",
               {.log_n = k, .scalar_kind = 1, .accumulation = kXyzz, .suffix = "_xyzz"});
      }}},
    {{"msm_affine_k", "",
      "sweep: batch-affine window groups (2^26, 2^27 pairs) and chain lengths K, K2 at G1 2^24 "
      "and G2 2^20",
      80,
      [](Context& ctx) {
        if (ctx.opt.quick) return;
        const unsigned max_log = ctx.opt.max_log;
        for (std::size_t gp : {std::size_t{1} << 26, std::size_t{1} << 27}) {
          if (max_log < 24) continue;
          g1(ctx, "g1_msm", {.log_n = 24, .accumulation = kAffine, .group_pairs = gp});
          g1(ctx, "g1_msm", {.log_n = 24, .accumulation = kXyzz, .group_pairs = gp});
        }
        const unsigned kk[][2] = {{4, 0}, {16, 0}, {0, 16}, {0, 256}};
        for (const auto& p : kk) {
          if (max_log >= 24)
            g1(ctx, "g1_msm",
               {.log_n = 24, .accumulation = kAffine, .affine_k = p[0], .affine_k2 = p[1]});
          if (max_log >= 20)
            g2(ctx, "g2_msm",
               {.log_n = 20, .accumulation = kAffine, .affine_k = p[0], .affine_k2 = p[1]});
        }
      }}},
    {{"g1_window", "msm",
      "G1 MSM (XYZZ) at window sizes around the rule's, 2^20/24/26 (not with --quick)", 90,
      [](Context& ctx) {
        if (ctx.opt.quick) return;
        for (unsigned k : {20u, 24u, 26u}) {
          if (k > ctx.opt.max_log) continue;
          const unsigned rule = msm::device_window_bits(std::size_t{1} << k);
          for (unsigned c = rule - 3; c <= std::min(rule + 2, 22u); ++c) {
            if (c == rule || (k == 26 && c < rule - 1)) continue;
            g1(ctx, "g1_msm_window", {.log_n = k, .window_bits = c});
          }
        }
      }}},
    {{"msm_occupancy", "",
      "sweep: level-0 occupancy 1/2/3 blocks per SM (XYZZ) at G1 2^22 and G2 2^20", 100,
      [](Context& ctx) {
        if (ctx.opt.quick) return;
        for (unsigned mb : {1u, 2u, 3u}) {
          if (ctx.opt.max_log >= 22) g1(ctx, "g1_msm_occupancy", {.log_n = 22, .min_blocks = mb});
          if (ctx.opt.max_log >= 20) g2(ctx, "g2_msm_occupancy", {.log_n = 20, .min_blocks = mb});
        }
      }}},
    {{"g2_window", "msm",
      "G2 MSM (XYZZ) at window sizes around the rule's, 2^20 (not with --quick)", 120,
      [](Context& ctx) {
        if (ctx.opt.quick || ctx.opt.max_log < 20) return;
        const unsigned rule = msm::device_window_bits(std::size_t{1} << 20);
        for (unsigned c = rule - 2; c <= std::min(rule + 2, 22u); ++c)
          if (c != rule) g2(ctx, "g2_msm_window", {.log_n = 20, .window_bits = c});
      }}},
};

}  // namespace
}  // namespace prestage::bench
