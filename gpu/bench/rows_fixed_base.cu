// gpu_bench rows `msm_fixed`: the fixed-base MSM (gpu/msm/gpu_msm_fixed_base.hpp) at G1 2^20 /
// 2^22 / 2^24 / 2^26 and G2 2^20 / 2^22, at the window rule's c and the default slices, each
// beside the default msm::on_device on the same inputs in one process (rows *_default); G1 2^24 and
// 2^26 also with slices of 2^27 pairs (_slice27) and 2^26 with one of 2^28 (_slice28: skipped when
// the table does not fit). Not with --quick.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "gpu/bench/bench_common.hpp"
#include "gpu/bench/rows_msm.cuh"
#include "gpu/msm/gpu_msm.hpp"
#include "gpu/msm/gpu_msm_fixed_base.hpp"

namespace prestage::bench {
namespace {

namespace g = prestage::gpu;
using ff::Fr;

// The inputs of a fixed-base bench: n points (`base` repeated, device), n random scalars
// (device), and the default msm::on_device on them (workspace reused): its row `default_row` (timed
// `reps` times after one warm-up) and its result, which every fixed-base row is compared with.
template <class Curve>
struct FixedBenchInputs {
  using Affine = typename Curve::Affine;
  g::SyncAllocator sync;
  std::size_t n;
  g::DeviceBuffer<Affine> pts;  // n points
  g::DeviceBuffer<Fr> sc;       // n scalars, Montgomery
  typename Curve::Jacobian def_result{};
  double def_ms = 0;
  FixedBenchInputs(const std::string& default_row, const std::vector<Affine>& base, unsigned log_n,
                   int reps, const Ceilings& cl, cudaStream_t stream, json& rows)
      : n(std::size_t{1} << log_n), pts(sync, n, stream), sc(sync, n, stream) {
    for (std::size_t first = 0; first < n; first += base.size()) {
      const std::size_t k = std::min(base.size(), n - first);
      PRESTAGE_CUDA_CHECK(cudaMemcpyAsync(pts.data() + first, base.data(), k * sizeof(Affine),
                                          cudaMemcpyHostToDevice, stream));
    }
    random_fr(sc.data(), n, 77 + log_n, 0, stream);
    PRESTAGE_CUDA_CHECK(cudaStreamSynchronize(stream));
    const msm::DeviceOptions opt;
    const std::size_t ws_bytes = msm::device_workspace_bytes<Curve>(n, opt);
    g::DeviceBuffer<unsigned char> ws(sync, ws_bytes, stream);
    const msm::DeviceWorkspace w{ws.data(), ws.bytes()};
    const auto ms = time_runs(stream, 1, reps, [&] {
      (void)msm::on_device<Curve>(pts.data(), sc.data(), n, w, stream, opt);
    });
    def_result = msm::on_device<Curve>(pts.data(), sc.data(), n, w, stream, opt);
    def_ms = median(ms);
    json r =
        row(default_row, n, ms, double(n) * (sizeof(Affine) + sizeof(Fr)) / cl.bandwidth_Bps, 0.0,
            "memory: read n points + n scalars once (msm::on_device at its defaults, the A side)");
    r["workspace_B"] = ws_bytes;
    r["device_B"] = ws_bytes;
    rows.push_back(r);
  }
};

// Phases of a fixed-base call (ms, medians of 3 runs with opt.stats = &stats; `result` the last
// run's): digits, sort, affine (map + prep + the rounds' other time), affine_invert, affine_add,
// accumulate (XYZZ tail), reduce, affine_prep.
template <class Curve>
json fixed_phases(const msm::DeviceBaseTable<Curve>& table, const Fr* d_scalars, std::size_t n,
                  const msm::DeviceWorkspace& w, cudaStream_t stream, msm::DeviceOptions opt,
                  msm::DeviceStats& stats, typename Curve::Jacobian& result) {
  constexpr int kPh = 8;
  static const char* names[kPh] = {"digits",     "sort",       "affine", "affine_invert",
                                   "affine_add", "accumulate", "reduce", "affine_prep"};
  opt.stats = &stats;
  std::vector<double> phase[kPh];
  for (int k = 0; k < 3; ++k) {
    result = msm::on_device_fixed_base<Curve>(table, d_scalars, n, w, stream, opt);
    const double p[kPh] = {stats.digits_ms,
                           stats.sort_ms,
                           stats.affine_ms + stats.affine_map_ms + stats.affine_prep_ms,
                           stats.affine_invert_ms,
                           stats.affine_add_ms,
                           stats.accumulate_ms,
                           stats.reduce_ms,
                           stats.affine_prep_ms};
    for (int q = 0; q < kPh; ++q) phase[q].push_back(p[q]);
  }
  json ph = json::object();
  for (int q = 0; q < kPh; ++q) ph[names[q]] = median(phase[q]);
  return ph;
}

// The fixed-base MSM (gpu/msm/gpu_msm_fixed_base.hpp) beside the default msm::on_device on the same
// inputs in one process. Row `name`_default: msm::on_device at its defaults (workspace reused);
// then for each c in `cs` (0: msm::fixed_base_window_bits), row `name`_cC: the table built once
// (build_ms, one build timed by CUDA events; table_B), then the fixed-base call timed on a
// reused workspace (slices of `slice_pairs` pairs, 0 = the default), its result compared with
// the default's (a mismatch counts in Context::msm_result_mismatches: exit 3). A c whose table and
// workspace do not fit the free device memory (cudaMemGetInfo, 2 GiB kept) is skipped and says so.
template <class Curve>
void bench_msm_fixed(Context& ctx, const std::string& name,
                     const std::vector<typename Curve::Affine>& base, unsigned log_n,
                     const std::vector<unsigned>& cs, double fq_per_fp, std::size_t slice_pairs = 0,
                     const std::string& suffix = "") {
  const Ceilings& cl = ctx.cl;
  cudaStream_t stream = ctx.stream;
  json& rows = ctx.rows;
  using Affine = typename Curve::Affine;
  using Jacobian = typename Curve::Jacobian;
  const int reps = log_n >= 26 ? 3 : log_n >= 24 ? 5 : 9;
  const FixedBenchInputs<Curve> in(name + "_default" + suffix, base, log_n, reps, cl, stream, rows);
  g::SyncAllocator sync;
  const std::size_t n = in.n;
  const auto& sc = in.sc;
  const auto& pts = in.pts;
  const Jacobian& def_result = in.def_result;
  const double def_ms = in.def_ms;
  for (unsigned c0 : cs) {
    const unsigned c = c0 != 0 ? c0 : msm::fixed_base_window_bits(fq_per_fp > 1.0, n);
    const unsigned W = msm::device_num_windows(c);
    msm::DeviceStats stats;
    msm::DeviceOptions opt;
    opt.max_group_pairs = slice_pairs;
    const std::size_t table_bytes = msm::base_table_bytes<Curve>(n, c);
    const std::size_t ws_bytes = msm::fixed_base_workspace_bytes<Curve>(n, c, opt);
    const std::size_t build_scratch =
        std::min<std::size_t>(n, std::size_t{1} << 22) *
        (sizeof(typename Curve::Xyzz) + sizeof(typename Affine::Field));
    std::size_t free_b = 0, total_b = 0;
    PRESTAGE_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    const std::string rname = name + "_c" + std::to_string(c) + suffix;
    if (table_bytes + ws_bytes + build_scratch + (std::size_t{2} << 30) > free_b) {
      std::printf("%-28s n=2^%-2u skipped: table %.2f GiB + workspace %.2f GiB > free %.2f GiB\n",
                  rname.c_str(), log_n, table_bytes / 1073741824.0, ws_bytes / 1073741824.0,
                  free_b / 1073741824.0);
      rows.push_back({{"name", rname},
                      {"log_n", log_n},
                      {"skipped", "device memory"},
                      {"table_B", table_bytes},
                      {"workspace_B", ws_bytes},
                      {"free_B", free_b}});
      continue;
    }
    g::DeviceBuffer<unsigned char> table_buf(sync, table_bytes, stream);
    msm::DeviceBaseTable<Curve> table;
    const auto build_ms = time_runs(stream, 0, 1, [&] {
      table = msm::build_base_table<Curve>(pts.data(), n, c, table_buf.data(), table_bytes, sync,
                                           stream);
    });
    g::DeviceBuffer<unsigned char> ws(sync, ws_bytes, stream);
    const msm::DeviceWorkspace w{ws.data(), ws.bytes()};
    const auto ms = time_runs(stream, 1, reps, [&] {
      (void)msm::on_device_fixed_base<Curve>(table, sc.data(), n, w, stream, opt);
    });
    Jacobian result{};
    const json ph = fixed_phases(table, sc.data(), n, w, stream, opt, stats, result);
    const bool ok = result == def_result;
    if (!ok) {
      ++ctx.msm_result_mismatches;
      std::printf(
          "    RESULT MISMATCH: the fixed-base MSM differs from msm::on_device's default\n");
    }
    // Fq products as bench_msm's floor (one window of 2^(c-1) buckets).
    const double buckets = std::ldexp(1.0, c - 1);
    const double mixed = double(stats.nonzero_digits) - double(stats.affine_adds);
    const double muls =
        fq_per_fp *
            (10.0 * mixed + 14.0 * (stats.partial_adds + 2 * buckets) +
             3.0 * (stats.affine_outputs + stats.affine_adds + stats.affine_thread_products)) +
        (fq_per_fp > 1.0 ? 4.0 : 0.0) * stats.affine_inversions;
    const double mem = double(n) *
                       (W * sizeof(typename msm::DeviceBaseTable<Curve>::Entry) + sizeof(Fr)) /
                       cl.bandwidth_Bps;
    json r = row(rname, n, ms, mem, muls / cl.fq_mul_per_s,
                 "memory: read the n W table points + n scalars once; compute: Fq products of "
                 "the additions this run did, as g1_msm's floor, over one window of 2^(c-1) "
                 "buckets");
    r["result_matches_default"] = ok;
    r["default_median_ms"] = def_ms;
    r["speedup_vs_default"] = def_ms / median(ms);
    r["window_bits"] = c;
    r["windows"] = W;
    r["slices"] = stats.window_groups;
    r["slice_pairs_option"] = slice_pairs;
    r["reduce_scheme"] = opt.reduce == msm::DeviceReduce::SuffixScan  ? "suffix_scan"
                         : opt.reduce == msm::DeviceReduce::DoubleAdd ? "double_add"
                                                                      : "auto";
    r["table_B"] = table_bytes;
    r["build_ms"] = build_ms[0];
    r["workspace_B"] = ws_bytes;
    r["affine_scratch_B"] = stats.affine_scratch_bytes;
    r["accumulation"] = stats.batch_affine ? "batch_affine" : "xyzz";
    r["nonzero_digits"] = stats.nonzero_digits;
    r["affine_adds"] = stats.affine_adds;
    r["affine_rounds"] = stats.affine_rounds;
    r["partial_adds"] = stats.partial_adds;
    r["levels"] = stats.max_levels;
    std::printf("    c=%u W=%u slices=%u phases (median of 3, ms):", c, W, stats.window_groups);
    for (const auto& [phase_name, v] : ph.items())
      std::printf(" %s %.2f", phase_name.c_str(), v.get<double>());
    std::printf(
        "\n    table %.3f GiB built in %.1f ms; workspace %.3f GiB (affine scratch %.3f "
        "GiB); default %.3f ms -> x%.3f\n",
        table_bytes / 1073741824.0, build_ms[0], ws_bytes / 1073741824.0,
        stats.affine_scratch_bytes / 1073741824.0, def_ms, def_ms / median(ms));
    r["phases_ms"] = ph;
    rows.push_back(r);
  }
}

const RegisterRows kFixed{
    {"msm_fixed", "msm",
     "fixed-base MSM beside msm::on_device: G1 2^20-2^26, G2 2^20/22 at the rule's c (not with "
     "--quick)",
     110, [](Context& ctx) {
       if (ctx.opt.quick) return;
       const unsigned max_log = ctx.opt.max_log;
       const MsmBases& b = msm_bases();
       const std::size_t s27 = std::size_t{1} << 27, s28 = std::size_t{1} << 28;
       for (unsigned k : {20u, 22u, 24u, 26u}) {
         if (k > max_log) continue;
         bench_msm_fixed<msm::G1Curve>(ctx, "g1_msm_fixed", b.g1, k, {0}, 1.0);
         if (k >= 24)
           bench_msm_fixed<msm::G1Curve>(ctx, "g1_msm_fixed", b.g1, k, {0}, 1.0, s27, "_slice27");
         if (k == 26)
           bench_msm_fixed<msm::G1Curve>(ctx, "g1_msm_fixed", b.g1, k, {0}, 1.0, s28, "_slice28");
       }
       for (unsigned k : {20u, 22u})
         if (k <= max_log) bench_msm_fixed<msm::G2Curve>(ctx, "g2_msm_fixed", b.g2, k, {0}, 3.0);
     }}};

}  // namespace
}  // namespace prestage::bench
