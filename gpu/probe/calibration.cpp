#include "gpu/probe/calibration.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <string_view>

#include "model/errors.hpp"

namespace prestage::probe {
namespace {

using Json = nlohmann::ordered_json;

// Dotted-path access into the raw JSON; a missing key or wrong type is an InputError naming the
// raw file and the path.
class Raw {
 public:
  Raw(const Json& j, std::string file) : j_(j), file_(std::move(file)) {}

  const Json& at(std::string_view path) const {
    const Json* cur = &j_;
    std::size_t pos = 0;
    while (pos <= path.size()) {
      const std::size_t dot = path.find('.', pos);
      const std::string key(
          path.substr(pos, dot == std::string_view::npos ? path.npos : dot - pos));
      if (!cur->is_object() || !cur->contains(key))
        throw InputError(file_, 0, std::string(path), "missing in the probe's raw results");
      cur = &(*cur)[key];
      if (dot == std::string_view::npos) break;
      pos = dot + 1;
    }
    return *cur;
  }
  double num(std::string_view path) const {
    const Json& v = at(path);
    if (!v.is_number()) throw InputError(file_, 0, std::string(path), "expected a number");
    return v.get<double>();
  }
  std::uint64_t bytes(std::string_view path) const {
    const Json& v = at(path);
    if (!v.is_number_unsigned()) throw InputError(file_, 0, std::string(path), "expected bytes");
    return v.get<std::uint64_t>();
  }
  bool boolean(std::string_view path) const {
    const Json& v = at(path);
    if (!v.is_boolean()) throw InputError(file_, 0, std::string(path), "expected true/false");
    return v.get<bool>();
  }
  std::string str(std::string_view path) const {
    const Json& v = at(path);
    if (!v.is_string()) throw InputError(file_, 0, std::string(path), "expected a string");
    return v.get<std::string>();
  }
  const Json& array(std::string_view path) const {
    const Json& v = at(path);
    if (!v.is_array() || v.empty())
      throw InputError(file_, 0, std::string(path), "expected a non-empty list");
    return v;
  }

 private:
  const Json& j_;
  std::string file_;
};

class Writer {
 public:
  Writer(const Raw& raw, std::string raw_ref, bool quick)
      : r_(raw), ref_(std::move(raw_ref)), quick_(quick) {
    e_.SetDoublePrecision(6);
  }
  YAML::Emitter& e() { return e_; }
  const Raw& r() const { return r_; }

  std::string source(const std::string& what) const {
    return fmt::format("probe {}{}; raw: {}", quick_ ? "(QUICK SMOKE SIZES) " : "", what, ref_);
  }
  template <class T>
  void quantity(const std::string& key, const T& value, const char* unit, const std::string& src) {
    e_ << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginMap;
    e_ << YAML::Key << "value" << YAML::Value << value;
    e_ << YAML::Key << "unit" << YAML::Value << unit;
    e_ << YAML::Key << "source" << YAML::Value << source(src) << YAML::EndMap;
  }
  void list_quantity(const std::string& key, const Json& list, const std::string& src) {
    e_ << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginMap;
    e_ << YAML::Key << "value" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const Json& v : list) e_ << v.get<std::string>();
    e_ << YAML::EndSeq;
    e_ << YAML::Key << "unit" << YAML::Value << "list";
    e_ << YAML::Key << "source" << YAML::Value << source(src) << YAML::EndMap;
  }
  // {fixed: s, per_gib: s/GiB} from a fit object at `path` (keys fixed_s, per_gib_s).
  void cost(const std::string& key, const std::string& path, const std::string& what) {
    const std::string how = fmt::format(
        "{} ({}), least-squares fit of relative residuals over {} per-size medians, rms relative "
        "residual {:.3f}",
        path, what, r_.num(path + ".points"), r_.num(path + ".rms_rel_residual"));
    e_ << YAML::Key << key << YAML::Value << YAML::BeginMap;
    quantity("fixed", r_.num(path + ".fixed_s"), "s", how);
    quantity("per_gib", r_.num(path + ".per_gib_s"), "s/GiB", how);
    e_ << YAML::EndMap;
  }

 private:
  const Raw& r_;
  std::string ref_;
  bool quick_;
  YAML::Emitter e_;
};

void emit_direction(Writer& w, const char* dir, const std::string& concurrency_src) {
  const Raw& r = w.r();
  YAML::Emitter& e = w.e();
  e << YAML::Key << dir << YAML::Value << YAML::BeginMap;
  for (const char* kind : {"pinned", "pageable"}) {
    const std::string base = fmt::format("sections.pcie.bandwidth.{}.{}", dir, kind);
    e << YAML::Key << kind << YAML::Value << YAML::BeginMap;
    const double fit_latency = r.num(base + ".fit.latency_s");
    if (fit_latency > 0)
      w.quantity("latency", fit_latency, "s",
                 fmt::format("pcie.bandwidth.{}.{}.fit: time = latency + bytes / bandwidth, "
                             "least-squares fit of relative residuals over the per-size medians "
                             "(rms relative residual {:.3f}, asymptotic bandwidth {:.4g} B/s)",
                             dir, kind, r.num(base + ".fit.rms_rel_residual"),
                             r.num(base + ".fit.bandwidth")));
    else
      w.quantity("latency", r.num(base + ".smallest_size_s"), "s",
                 fmt::format("pcie.bandwidth.{}.{}: median time of the smallest copy (the fit's "
                             "intercept was not positive)",
                             dir, kind));
    e << YAML::Key << "bandwidth" << YAML::Value << YAML::BeginSeq;
    for (const Json& row : r.array(base + ".rows")) {
      e << YAML::Flow << YAML::BeginMap;
      e << YAML::Key << "bytes" << YAML::Value << row.at("bytes").get<std::uint64_t>();
      e << YAML::Key << "value" << YAML::Value << row.at("bandwidth").get<double>();
      e << YAML::Key << "unit" << YAML::Value << "B/s";
      e << YAML::Key << "source" << YAML::Value
        << w.source(fmt::format("pcie.bandwidth.{}.{}, {} B, median of {} CUDA-event-timed "
                                "cudaMemcpyAsync after 2 warm-ups",
                                dir, kind, row.at("bytes").get<std::uint64_t>(),
                                row.at("repetitions").get<int>()));
      e << YAML::EndMap;
    }
    e << YAML::EndSeq;
    if (std::string(kind) == "pageable") {
      const std::string idle = fmt::format("{}_pageable_idle_stream", dir);
      const std::string busy = fmt::format("{}_pageable_busy_stream", dir);
      w.quantity("blocks_host_thread",
                 r.boolean(fmt::format("sections.pcie.summary.{}_pageable_blocks_host", dir)),
                 "bool",
                 fmt::format("pcie.pageable_blocking case {}: host clock around cudaMemcpyAsync "
                             "vs the copy's CUDA-event time (blocks = call >= half the copy), "
                             "{}",
                             idle, concurrency_src));
      w.quantity("waits_for_stream",
                 r.boolean(fmt::format("sections.pcie.summary.{}_pageable_waits_for_stream", dir)),
                 "bool",
                 fmt::format("pcie.pageable_blocking case {}: the call returns only after the "
                             "kernel queued before it on the same stream (call >= half its time)",
                             busy));
    }
    e << YAML::EndMap;
  }
  e << YAML::EndMap;
}

void emit_kernels(YAML::Emitter& e, const std::string& text, const std::string& file) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& x) {
    throw InputError(file, x.mark.line + 1, "", x.msg);
  }
  const YAML::Node k = root["kernels"];
  if (!k || !k.IsMap()) throw InputError(file, 0, "kernels", "expected a map of cost curves");
  e << YAML::Key << "kernels" << YAML::Value << YAML::BeginMap;
  for (const auto& curve : k) {
    const std::string name = curve.first.as<std::string>();
    if (!curve.second.IsSequence() || curve.second.size() == 0)
      throw InputError(file, curve.second.Mark().line + 1, "kernels." + name,
                       "expected a non-empty list of points");
    e << YAML::Key << name << YAML::Value << YAML::BeginSeq;
    std::size_t i = 0;
    for (const auto& pt : curve.second) {
      const std::string key = fmt::format("kernels.{}[{}]", name, i++);
      const int line = pt.Mark().line + 1;
      for (const char* f : {"log2_n", "value", "unit", "source"})
        if (!pt.IsMap() || !pt[f]) throw InputError(file, line, key + "." + f, "missing");
      try {
        e << YAML::Flow << YAML::BeginMap;
        e << YAML::Key << "log2_n" << YAML::Value << pt["log2_n"].as<int>();
        e << YAML::Key << "value" << YAML::Value << pt["value"].as<double>();
        e << YAML::Key << "unit" << YAML::Value << pt["unit"].as<std::string>();
        e << YAML::Key << "source" << YAML::Value << pt["source"].as<std::string>();
        e << YAML::EndMap;
      } catch (const YAML::Exception& x) {
        throw InputError(file, line, key, "bad value: " + x.msg);
      }
    }
    e << YAML::EndSeq;
  }
  e << YAML::EndMap;
}

}  // namespace

std::string build_calibration_yaml(const CalibrationInputs& in) {
  const Raw r(in.raw, in.raw_file);
  if (r.str("schema") != "prestage-probe-raw/1")
    throw InputError(in.raw_file, 0, "schema", "expected prestage-probe-raw/1");
  Writer w(r, in.raw_ref, r.boolean("meta.quick"));
  YAML::Emitter& e = w.e();
  e << YAML::BeginMap;
  e << YAML::Key << "schema" << YAML::Value << "prestage-calibration/1";

  // device
  e << YAML::Key << "device" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "name" << YAML::Value << r.str("meta.device.name");
  e << YAML::Key << "driver" << YAML::Value << r.str("meta.driver");
  e << YAML::Key << "cuda_runtime" << YAML::Value << r.at("meta.cuda_runtime").get<int>();
  e << YAML::Key << "measured_on" << YAML::Value << r.str("meta.date");
  e << YAML::Key << "probe_commit" << YAML::Value << r.str("meta.commit");
  e << YAML::Key << "raw" << YAML::Value << in.raw_ref;
  w.quantity("total_memory", r.bytes("meta.meminfo_at_context_start.total"), "B",
             "meta.meminfo_at_context_start: cudaMemGetInfo total after context creation");
  w.quantity("free_at_context_start", r.bytes("meta.meminfo_at_context_start.free"), "B",
             "meta.meminfo_at_context_start: cudaMemGetInfo free right after context creation");
  e << YAML::EndMap;

  // pcie
  e << YAML::Key << "pcie" << YAML::Value << YAML::BeginMap;
  emit_direction(w, "h2d", "see sections.pcie.method");
  emit_direction(w, "d2h", "see sections.pcie.method");
  e << YAML::Key << "concurrency" << YAML::Value << YAML::BeginMap;
  const std::uint64_t cn = r.bytes("sections.pcie.summary.concurrency_bytes_each");
  for (const char* dir : {"h2d", "d2h"}) {
    const std::string base = fmt::format("sections.pcie.same_direction_{}", dir);
    const std::string key = std::string(dir) == "h2d" ? "same_direction" : "same_direction_d2h";
    w.quantity(key, r.str(base + ".verdict"), "enum",
               fmt::format("pcie.same_direction_{}: two {} B copies on two streams released by "
                           "one event, median overlap fraction {:.3f} (shared >= 0.8, queued <= "
                           "0.1), median of {}",
                           dir, cn, r.num(base + ".median_overlap_fraction"),
                           r.array(base + ".repetitions").size()));
    w.quantity(key + "_aggregate", r.num(base + ".median_aggregate_bw"), "B/s",
               fmt::format("pcie.same_direction_{}: 2 x {} B over first start to last end, "
                           "median of {} ({:.3f} x the solo bandwidth)",
                           dir, cn, r.array(base + ".repetitions").size(),
                           r.num(base + ".aggregate_over_solo")));
  }
  w.quantity("bidirectional_aggregate", r.num("sections.pcie.duplex.median_aggregate_bw"), "B/s",
             fmt::format("pcie.duplex: {} B host-to-device and {} B device-to-host on two streams "
                         "released by one event, 2 x bytes over first start to last end, median "
                         "of {} ({:.3f} x the sum of the solo bandwidths)",
                         cn, cn, r.array("sections.pcie.duplex.repetitions").size(),
                         r.num("sections.pcie.summary.bidirectional_over_sum_of_solo")));
  e << YAML::EndMap;
  e << YAML::EndMap;

  // host memory
  e << YAML::Key << "host_memory" << YAML::Value << YAML::BeginMap;
  w.cost("host_register", "sections.host_memory.summary.host_register", "cudaHostRegister");
  w.cost("host_unregister", "sections.host_memory.summary.host_unregister", "cudaHostUnregister");
  w.cost("malloc_host", "sections.host_memory.summary.malloc_host", "cudaMallocHost");
  w.cost("free_host", "sections.host_memory.summary.free_host", "cudaFreeHost");
  e << YAML::EndMap;

  // device memory
  e << YAML::Key << "device_memory" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "sync_allocator" << YAML::Value << YAML::BeginMap;
  w.quantity("granularity", r.bytes("sections.granularity.summary.sync_granularity"), "B",
             fmt::format("granularity.sync: gcd of cudaMemGetInfo drops per cudaMalloc of sizes "
                         "> 2 MiB (rounding-up reproduces every drop: {})",
                         r.boolean("sections.granularity.summary.sync_granularity_consistent")));
  w.cost("malloc", "sections.sync_allocator_costs.summary.malloc", "cudaMalloc, host clock");
  w.cost("free", "sections.sync_allocator_costs.summary.free", "cudaFree, host clock, device idle");
  w.quantity("free_synchronizes_device",
             r.boolean("sections.device_sync_calls.summary.free_synchronizes_device"), "bool",
             "device_sync_calls: cudaFree while a kernel runs on another stream, host clock");
  w.quantity("largest_allocation", r.bytes("sections.largest_allocation.summary.sync_largest"), "B",
             "largest_allocation.sync: bisection to 2 MiB of single cudaMalloc calls");
  e << YAML::EndMap;

  e << YAML::Key << "pool" << YAML::Value << YAML::BeginMap;
  w.quantity("granularity", r.bytes("sections.granularity.summary.pool_granularity"), "B",
             "granularity.pool: gcd of the reserved-memory growth of single cudaMallocAsync "
             "calls of 1 B .. 1 GiB + 1 on a trimmed default pool");
  w.quantity("minimum_reservation",
             r.bytes("sections.granularity.summary.pool_minimum_reservation"), "B",
             "granularity.pool: reserved memory after one 1 B cudaMallocAsync on a trimmed pool");
  w.cost("malloc_async", "sections.pool_costs.summary.malloc_async",
         "cold cudaMallocAsync on a trimmed pool + stream sync");
  w.cost("malloc_async_warm", "sections.pool_costs.summary.malloc_async_warm",
         "cudaMallocAsync served from the idle pool + stream sync");
  w.cost("free_async", "sections.pool_costs.summary.free_async", "cudaFreeAsync call");
  w.cost("release_at_sync", "sections.pool_costs.summary.release_at_stream_sync",
         "cudaStreamSynchronize that releases a freed block, threshold 0");
  w.quantity("release_threshold_default",
             r.bytes("sections.pool_defaults.summary.release_threshold"), "B",
             "pool_defaults: cudaMemPoolAttrReleaseThreshold of the default pool as found");
  w.quantity("release_keeps_threshold",
             r.boolean("sections.pool_release_calls.summary.threshold_between_keeps_threshold"),
             "bool",
             fmt::format("pool_release_calls: threshold {} B, stream sync after freeing twice "
                         "that: reserved memory left equals the threshold",
                         r.bytes("sections.pool_release_calls.summary.threshold_tested_bytes")));
  w.quantity("reuse_same_stream", r.str("sections.pool_reuse.summary.reuse_same_stream"), "enum",
             "pool_reuse same_stream_pending: cudaMallocAsync on the freeing stream while the "
             "free is still pending behind a kernel");
  w.quantity("reuse_other_stream", r.str("sections.pool_reuse.summary.reuse_other_stream"), "enum",
             "pool_reuse: other stream with the free pending (no event), completed (no sync), "
             "after an event dependency; first that reuses the block");
  w.list_quantity("released_to_os_by",
                  r.array("sections.pool_release_calls.summary.released_to_os_by"),
                  "pool_release_calls: threshold 0, 4 blocks freed and completed, reserved "
                  "memory read before and after each call, one trial per call");
  w.quantity("cudamalloc_reclaims_idle_pool",
             r.boolean("sections.pool_vs_cudamalloc.summary.cudamalloc_reclaims_idle_pool"), "bool",
             "pool_vs_cudamalloc idle_pool_threshold_max: card filled through the pool, all "
             "freed and synchronised (threshold UINT64_MAX), then cudaMalloc of half the card");
  w.quantity("cudamalloc_reclaims_pending_frees",
             r.boolean("sections.pool_vs_cudamalloc.summary.cudamalloc_reclaims_pending_frees"),
             "bool",
             "pool_vs_cudamalloc threshold0_frees_pending: as above, threshold 0, frees still "
             "queued behind a kernel");
  w.quantity("cudamalloc_reclaims_completed_frees_before_sync",
             r.boolean("sections.pool_vs_cudamalloc.summary."
                       "cudamalloc_reclaims_completed_frees_before_sync"),
             "bool",
             "pool_vs_cudamalloc threshold0_frees_completed_no_sync: threshold 0, frees done on "
             "the GPU, no host synchronisation yet");
  w.quantity(
      "meminfo_counts_pool_reserved_as_used",
      r.boolean("sections.pool_vs_cudamalloc.summary.meminfo_counts_pool_reserved_as_used"), "bool",
      fmt::format("pool_vs_cudamalloc idle_pool_threshold_max: cudaMemGetInfo free {} B "
                  "while the idle pool reserved {} B (free before the fill {} B)",
                  r.bytes("sections.pool_vs_cudamalloc.summary.meminfo_free_while_idle_pool"),
                  r.bytes("sections.pool_vs_cudamalloc.summary.idle_pool_reserved"),
                  r.bytes("sections.pool_vs_cudamalloc.summary.meminfo_free_before_fill")));
  w.cost("trim", "sections.pool_costs.summary.trim", "cudaMemPoolTrimTo(pool, 0) of an idle block");
  w.quantity("trim_with_pending_frees",
             r.str("sections.trim_pending.summary.trim_with_pending_frees"), "enum",
             "trim_pending: cudaMemPoolTrimTo(pool, 0) while a cudaFreeAsync waits behind a "
             "kernel (threshold UINT64_MAX), host clock and reserved memory");
  w.quantity("largest_allocation", r.bytes("sections.largest_allocation.summary.pool_largest"), "B",
             "largest_allocation.pool: bisection to 2 MiB of single cudaMallocAsync calls");
  e << YAML::EndMap;
  w.quantity("oom_sticky", r.boolean("sections.oom_sticky.summary.oom_sticky"), "bool",
             "oom_sticky: impossible and card-full out-of-memory from both allocators, then "
             "cudaMalloc + kernel launch + device sync");
  e << YAML::EndMap;

  // synchronization
  e << YAML::Key << "synchronization" << YAML::Value << YAML::BeginMap;
  w.quantity("device_synchronize_waits_all_streams",
             r.boolean("sections.device_sync_calls.summary.device_synchronize_waits_all_streams"),
             "bool",
             "device_sync_calls: cudaDeviceSynchronize while a kernel runs on another stream");
  const std::string reps =
      fmt::format("median of {}", r.at("sections.sync_costs.summary.repetitions").get<int>());
  for (auto [key, path] : {std::pair{"stream_synchronize", "stream_synchronize_s"},
                           std::pair{"event_record_sync", "event_record_sync_s"},
                           std::pair{"device_synchronize", "device_synchronize_s"}}) {
    e << YAML::Key << key << YAML::Value << YAML::BeginMap;
    w.quantity("fixed", r.num(std::string("sections.sync_costs.summary.") + path), "s",
               fmt::format("sync_costs {}: host clock on an idle stream, {}", path, reps));
    e << YAML::EndMap;
  }
  w.list_quantity("calls_that_synchronize_device",
                  r.at("sections.device_sync_calls.summary.calls_that_synchronize_device"),
                  fmt::format("device_sync_calls: host clock around each call while a {} s "
                              "kernel runs on another stream; waited = median >= half of it",
                              r.num("sections.device_sync_calls.summary.kernel_s")));
  e << YAML::EndMap;

  if (!in.kernels_yaml.empty()) emit_kernels(e, in.kernels_yaml, in.kernels_file);
  e << YAML::EndMap;
  if (!e.good()) throw std::runtime_error("YAML emitter: " + e.GetLastError());
  return std::string(e.c_str()) + "\n";
}

}  // namespace prestage::probe
