// prestage-probe: measures on a GPU every question of docs/story.md (device memory allocators,
// pools, synchronisation, PCIe, host pinning) and writes (a) the raw results JSON and (b) a
// calibration YAML (data/calibration/SCHEMA.md). `--from-json RAW` rebuilds (b) from (a) without
// a GPU. Exit codes: 0 all measured and written; 1 a section failed (the JSON still holds every
// section that ran and the error of each that did not); 2 bad input.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <thread>

#include "gpu/probe/calibration.hpp"
#include "gpu/probe/cuda_util.hpp"
#include "gpu/probe/probes.hpp"
#include "model/errors.hpp"
#include "model/output_files.hpp"

namespace fs = std::filesystem;
using prestage::InputError;
using namespace prestage::probe;

namespace {

// Writes `text` to `path` through a unique temporary file in the same directory and a rename, so
// a reader never sees a half-written file (model/output_files.hpp). It replaces the probe's own
// earlier file (the JSON is rewritten after every section; whether an existing output may be
// replaced at all is checked once, up front, by check_outputs), never a directory.
void write_atomically(const std::string& path, const std::string& text) {
  prestage::output::write_file_atomic(
      path, true, [&](std::ostream& f) { f << text; }, "");
}

// Before any work: each output's directory exists, and an existing output is replaced only with
// --force (a directory never).
void check_outputs(const std::vector<std::string>& files, bool force) {
  for (const std::string& f : files) {
    if (f.empty()) continue;
    if (fs::path(f).has_parent_path() && !fs::is_directory(fs::path(f).parent_path()))
      throw InputError(f, 0, "", "directory does not exist");
    prestage::output::check_replaceable_file(f, force, "");
  }
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw InputError(path, 0, "", "cannot open");
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string utc_date() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

std::string utc_time() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

struct Options {
  std::string out_json, out_yaml, commit = "unknown", driver = "unknown", raw_ref, kernels,
                                  from_json, only, date, gpu_bench;
  std::vector<int> extrapolate;
  bool quick = false, force = false;
  double max_seconds = 0;
};

// Parses a JSON file; a syntax error is an InputError naming the file and line.
Json parse_json_file(const std::string& path) {
  const std::string text = read_file(path);
  try {
    return Json::parse(text);
  } catch (const Json::parse_error& e) {
    const std::size_t upto = std::min(e.byte, text.size());
    const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + upto, '\n'));
    throw InputError(path, line, "", std::string("not JSON: ") + e.what());
  }
}

std::string build_yaml(const Json& raw, const Options& o, const std::string& raw_file) {
  CalibrationInputs in;
  in.raw = raw;
  in.raw_file = raw_file;
  in.raw_ref = o.raw_ref.empty() ? raw_file : o.raw_ref;
  if (!o.kernels.empty()) {
    in.kernels_yaml = read_file(o.kernels);
    in.kernels_file = o.kernels;
  }
  if (!o.gpu_bench.empty()) {
    in.gpu_bench = parse_json_file(o.gpu_bench);
    in.gpu_bench_file = in.gpu_bench_ref = o.gpu_bench;
  }
  in.extrapolate_log2_n = o.extrapolate;
  return build_calibration_yaml(in);
}

int from_json(const Options& o) {
  const Json raw = parse_json_file(o.from_json);
  if (o.out_yaml.empty()) throw InputError("", 0, "--out-yaml", "required with --from-json");
  check_outputs({o.out_yaml}, o.force);
  write_atomically(o.out_yaml, build_yaml(raw, o, o.from_json));
  return 0;
}

Json device_meta(const Options& o, int argc, char** argv) {
  Json m;
  std::string cmd;
  for (int i = 0; i < argc; ++i) cmd += (i ? " " : "") + std::string(argv[i]);
  m["command"] = cmd;
  m["commit"] = o.commit;
  m["driver"] = o.driver;
  m["date"] = o.date.empty() ? utc_date() : o.date;
  m["started_utc"] = utc_time();
  m["quick"] = o.quick;
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  m["host"] = {{"hostname", host}, {"hardware_threads", std::thread::hardware_concurrency()}};
  int rt = 0, drv = 0;
  PROBE_CUDA(cudaRuntimeGetVersion(&rt));
  PROBE_CUDA(cudaDriverGetVersion(&drv));
  m["cuda_runtime"] = rt;
  m["cuda_driver_api"] = drv;
  cudaDeviceProp p{};
  PROBE_CUDA(cudaGetDeviceProperties(&p, 0));
  auto attr = [](cudaDeviceAttr a) {
    int v = 0;
    PROBE_CUDA(cudaDeviceGetAttribute(&v, a, 0));
    return v;
  };
  m["device"] = {{"name", p.name},
                 {"total_global_mem", p.totalGlobalMem},
                 {"compute_capability", fmt::format("{}.{}", p.major, p.minor)},
                 {"multiprocessors", attr(cudaDevAttrMultiProcessorCount)},
                 {"async_engine_count", attr(cudaDevAttrAsyncEngineCount)},
                 {"pci_bus_id", attr(cudaDevAttrPciBusId)},
                 {"pci_device_id", attr(cudaDevAttrPciDeviceId)},
                 {"memory_pools_supported", attr(cudaDevAttrMemoryPoolsSupported)},
                 {"pageable_memory_access", attr(cudaDevAttrPageableMemoryAccess)},
                 {"global_memory_bus_width", attr(cudaDevAttrGlobalMemoryBusWidth)},
                 {"l2_cache_bytes", attr(cudaDevAttrL2CacheSize)}};
  return m;
}

int run_probe(const Options& o, int argc, char** argv) {
  if (o.out_json.empty()) throw InputError("", 0, "--out-json", "required");
  // Check the output locations before spending GPU time.
  check_outputs({o.out_json, o.out_yaml}, o.force);
  const double t_start = host_now();
  PROBE_CUDA(cudaSetDevice(0));
  PROBE_CUDA(cudaFree(nullptr));  // create the primary context
  ProbeContext c;
  c.quick = o.quick;
  const prestage::gpu::MemInfo m0 = prestage::gpu::mem_info();
  c.total_memory = m0.total_bytes;
  PROBE_CUDA(cudaDeviceGetDefaultMemPool(&c.pool, 0));

  Json raw;
  raw["schema"] = "prestage-probe-raw/1";
  raw["meta"] = device_meta(o, argc, argv);
  raw["meta"]["meminfo_at_context_start"] = {{"free", m0.free_bytes}, {"total", m0.total_bytes}};
  raw["meta"]["context_start_s"] = host_now() - t_start;
  raw["sections"] = Json::object();
  raw["errors"] = Json::array();

  const std::vector<std::pair<std::string, std::function<Json(ProbeContext&)>>> sections = {
      {"pool_defaults", probe_pool_defaults},
      {"sync_costs", probe_sync_costs},
      {"pcie", probe_pcie},
      {"host_memory", probe_host_memory},
      {"device_sync_calls", probe_device_sync_calls},
      {"pool_reuse", probe_pool_reuse},
      {"pool_release_calls", probe_pool_release_calls},
      {"trim_pending", probe_trim_pending},
      {"granularity", probe_granularity},
      {"pool_costs", probe_pool_costs},
      {"sync_allocator_costs", probe_sync_allocator_costs},
      {"pool_vs_cudamalloc", probe_pool_vs_cudamalloc},
      {"largest_allocation", probe_largest_allocation},
      {"oom_sticky", probe_oom_sticky},
      {"driver_serialisation", probe_driver_serialisation},
      {"driver_waits", probe_driver_waits},
      {"free_release", probe_free_release},
      {"free_holds_driver", probe_free_holds_driver},
      {"handoff_runtime", probe_handoff_runtime},
      {"multi_gpu_h2d", probe_multi_gpu_h2d},
      {"msm_workspace", probe_msm_workspace},
      {"msm_streaming", probe_msm_streaming},
      {"h_during_registration", probe_h_during_registration},
  };
  bool failed = false, dead = false;
  for (const auto& [name, fn] : sections) {
    if (!o.only.empty() && ("," + o.only + ",").find("," + name + ",") == std::string::npos)
      continue;
    if (dead || (o.max_seconds > 0 && host_now() - t_start > o.max_seconds)) {
      raw["errors"].push_back(
          {{"section", name},
           {"error", dead ? "skipped: context lost" : "skipped: --max-seconds"}});
      failed = true;
      continue;
    }
    fmt::print("[probe] {} ...\n", name);
    std::fflush(stdout);
    const double t0 = host_now();
    try {
      Json r = fn(c);
      r["wall_s"] = host_now() - t0;
      if (r.contains("summary"))
        fmt::print("[probe] {} {:.1f} s: {}\n", name, host_now() - t0, r["summary"].dump());
      raw["sections"][name] = std::move(r);
    } catch (const std::exception& e) {
      failed = true;
      fmt::print("[probe] {} FAILED: {}\n", name, e.what());
      raw["errors"].push_back(
          {{"section", name}, {"error", e.what()}, {"wall_s", host_now() - t0}});
      // Recover: clear a non-sticky error, quiesce, restore the pool. A sticky error ends the run.
      (void)cudaGetLastError();
      if (cudaDeviceSynchronize() != cudaSuccess) {
        dead = true;
      } else {
        std::uint64_t zero = 0;
        (void)cudaMemPoolSetAttribute(c.pool, cudaMemPoolAttrReleaseThreshold, &zero);
        (void)cudaMemPoolTrimTo(c.pool, 0);
      }
    }
    std::fflush(stdout);
    raw["meta"]["total_s"] = host_now() - t_start;
    write_atomically(o.out_json, raw.dump(1) + "\n");
  }
  fmt::print("[probe] total {:.1f} s, {} error(s)\n", host_now() - t_start, raw["errors"].size());
  if (!o.out_yaml.empty()) {
    try {
      write_atomically(o.out_yaml, build_yaml(raw, o, o.out_json));
    } catch (const InputError& e) {
      fmt::print(stderr, "calibration not written: {}\n", e.what());
      return 1;
    }
  }
  return failed ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"prestage-probe: measure allocator, pool, synchronisation and PCIe behaviour"};
  Options o;
  app.add_option("--out-json", o.out_json, "raw results JSON (written after every section)");
  app.add_option("--out-yaml", o.out_yaml, "calibration YAML (data/calibration/SCHEMA.md)");
  app.add_flag("--quick", o.quick, "small sizes, few repetitions (smoke run)");
  app.add_flag("--force", o.force, "replace existing --out-json / --out-yaml files");
  app.add_option("--commit", o.commit, "git commit of the probe's source (recorded)");
  app.add_option("--driver", o.driver, "driver version string, e.g. from nvidia-smi (recorded)");
  app.add_option("--date", o.date, "measurement date recorded (default: today, UTC)");
  app.add_option("--raw-path", o.raw_ref,
                 "path of the raw JSON as committed, cited in every calibration source");
  app.add_option("--kernels", o.kernels,
                 "YAML whose `kernels:` cost curves are copied into the calibration");
  app.add_option(
      "--gpu-bench", o.gpu_bench,
      "gpu_bench JSON whose measured kernel curves (and fits) replace --kernels' curves");
  app.add_option("--extrapolate", o.extrapolate,
                 "log2 n at which each kernel curve not measured there records its fit's value")
      ->delimiter(',')
      ->check(CLI::Range(1, 40));
  app.add_option("--from-json", o.from_json, "rebuild --out-yaml from this raw JSON (no GPU)");
  app.add_option("--only", o.only, "comma-separated sections to run (default: all)");
  app.add_option("--max-seconds", o.max_seconds, "skip sections starting after this many s");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  try {
    return o.from_json.empty() ? run_probe(o, argc, argv) : from_json(o);
  } catch (const InputError& e) {
    std::cerr << "prestage-probe: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "prestage-probe: " << e.what() << "\n";
    return 1;
  }
}
