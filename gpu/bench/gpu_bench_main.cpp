// gpu_bench: benchmarks of the GPU kernels on the device (not a test; nothing asserts timings).
//
// Axes: kernel (NTT forward/inverse/coset, H computation, G1/G2 MSM, PoRep-shaped MSM,
// fixed-base MSM) x size. Rows come in families (rows_*.cu), each selected by a --rows token
// (--list prints them); the default is ntt,h,msm ("msm": every MSM family but the sweeps).
// Method: data generated on the device or the host from a seed (never zeros), warm-up runs,
// then R timed runs with CUDA events on one stream; the median is reported with every run.
// Ceilings measured first, in the same process: device-to-device copy bandwidth (bytes read +
// written over time, cudaMemcpyAsync of 2 GiB) and the Fr and Fq multiplication rates (chains
// of independent Montgomery products, every SM busy). Each row's floor is the larger of
//   memory floor  = the fewest bytes the kernel must move / measured bandwidth;
//   compute floor = the field multiplications it must do / measured multiplication rate,
// with the counts stated in the row's "floor_how".
// Output: JSON {manifest, ceilings, mul_rates_ptx32, rows: [{name, log_n, n, median_ms, runs_ms,
// floor_*, ...}]} (read by prestage-probe --gpu-bench, scripts/gpu_bench_table.py and
// papers/gen_numbers.sh). Exit 0; 1 on a CUDA error or no device; 2 on bad arguments; 3 when an
// MSM row's result differs from the reference (the JSON is written first).
// Which tokens were retired and where their results are: gpu/bench/README.md.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <fstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "gpu/bench/bench_common.hpp"

namespace {

using prestage::bench::Context;
using prestage::bench::json;
using prestage::bench::Options;
using prestage::bench::RowFamily;

std::vector<RowFamily> sorted_families() {
  std::vector<RowFamily> f = prestage::bench::registry();
  std::stable_sort(f.begin(), f.end(),
                   [](const RowFamily& a, const RowFamily& b) { return a.order < b.order; });
  return f;
}

bool has_token(const std::string& sel, const std::string& token) {
  return !token.empty() && sel.find("," + token + ",") != std::string::npos;
}

void print_list(const std::vector<RowFamily>& families) {
  std::printf("row tokens (--rows, comma-separated; default ntt,h,msm):\n");
  std::printf("  %-15s %s\n", "msm", "every MSM family marked [msm] below (not the sweeps)");
  for (const auto& f : families)
    std::printf("  %-15s %s%s\n", f.token.c_str(), f.group.empty() ? "" : "[msm] ",
                f.description.c_str());
}

int write_json(const json& out, const std::string& path) {
  std::ofstream f(path);
  f << out.dump(2) << "\n";
  if (!f) {
    std::fprintf(stderr, "gpu_bench: cannot write %s\n", path.c_str());
    return 1;
  }
  std::printf("wrote %s\n", path.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  namespace g = prestage::gpu;
  const std::vector<RowFamily> families = sorted_families();
  Options o;
  std::string rows_arg = "ntt,h,msm";
  bool list = false;
  CLI::App app{"gpu_bench: GPU kernel benchmarks (NTT, H, MSM, fixed-base MSM), JSON out"};
  app.add_option("--out", o.out_path, "JSON results (default gpu_bench.json)");
  app.add_option("--commit", o.commit, "commit the tree was taken from (default unknown)");
  app.add_option("--max-log", o.max_log, "largest size, log2 (default 27)");
  app.add_flag("--quick", o.quick, "fewer and smaller rows (H at 2^20, no 2^27 MSM, no sweeps)");
  app.add_option("--rows", rows_arg, "comma-separated row tokens (default ntt,h,msm; --list)");
  app.add_option("--ntt-logs", o.ntt_logs,
                 "NTT and groth16_h_input sizes, log2 (default 20,24,26,27)")
      ->delimiter(',')
      ->check(CLI::Range(1u, 28u));
  app.add_flag("--forward-only", o.forward_only, "NTT: forward rows only (tuning sweeps)");
  app.add_flag("--list", list, "print the row tokens and exit");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  if (list) {
    print_list(families);
    return 0;
  }
  o.rows = "," + rows_arg + ",";
  for (std::size_t pos = 1; pos < o.rows.size();) {
    const std::size_t end = o.rows.find(',', pos);
    const std::string t = o.rows.substr(pos, end - pos);
    pos = end + 1;
    if (t.empty() || t == "msm") continue;
    if (std::none_of(families.begin(), families.end(),
                     [&](const RowFamily& f) { return f.token == t; })) {
      std::fprintf(stderr,
                   "gpu_bench: unknown row token '%s' (gpu_bench --list; retired A/B tokens: "
                   "gpu/bench/README.md)\n",
                   t.c_str());
      return 2;
    }
  }
  int devices = 0;
  if (const cudaError_t e = cudaGetDeviceCount(&devices); e != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "gpu_bench: SKIPPED: no CUDA device (%s); nothing measured, no JSON\n",
                 e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
    return 1;
  }
  try {
    json out;
    cudaDeviceProp prop{};
    int dev = 0, driver = 0, runtime = 0;
    PRESTAGE_CUDA_CHECK(cudaGetDevice(&dev));
    PRESTAGE_CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    PRESTAGE_CUDA_CHECK(cudaDriverGetVersion(&driver));
    PRESTAGE_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    const std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    const char* tuning = std::getenv("PRESTAGE_NTT_TUNING");
    out["manifest"] = {{"program", "gpu_bench"},
                       {"commit", o.commit},
                       {"date", date},
                       {"gpu", prop.name},
                       {"cuda_driver", driver},
                       {"cuda_runtime", runtime},
                       {"sm", std::to_string(prop.major) + std::to_string(prop.minor)},
                       {"max_log", o.max_log},
                       {"quick", o.quick},
                       {"ntt_tuning", tuning ? tuning : "default"}};
    g::Stream stream;
    g::SyncAllocator sync;
    const auto cl = prestage::bench::measure_ceilings(sync, stream.get(), out);
    out["manifest"]["rows"] = o.rows;
    json rows = json::array();
    Context ctx{o, cl, stream.get(), out, rows};
    for (const auto& f : families)
      if (has_token(o.rows, f.token) || has_token(o.rows, f.group)) f.run(ctx);
    out["rows"] = rows;
    if (const int rc = write_json(out, o.out_path); rc != 0) return rc;
    if (ctx.msm_result_mismatches > 0) {
      std::fprintf(stderr, "gpu_bench: %d MSM row(s) differ from the XYZZ default's result\n",
                   ctx.msm_result_mismatches);
      return 3;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpu_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
