#include "gpu/probe/calibration.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <string_view>
#include <tuple>

#include "gpu/probe/kernel_curves.hpp"
#include "gpu/probe/stats.hpp"
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
  bool has(std::string_view path) const {
    try {
      (void)at(path);
      return true;
    } catch (const InputError&) {
      return false;
    }
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
  Writer(const Raw& raw, std::string raw_file, std::string raw_ref, bool quick)
      : r_(raw), file_(std::move(raw_file)), ref_(std::move(raw_ref)), quick_(quick) {
    e_.SetDoublePrecision(6);
  }
  YAML::Emitter& e() { return e_; }
  const std::string& file() const { return file_; }
  const Raw& r() const { return r_; }
  bool quick() const { return quick_; }

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
  // A row's value at `field` (dotted inside the row): a number, or the median of a list.
  double row_value(const Json& row, const std::string& rows_path, std::size_t i,
                   const std::string& field) const {
    const Json* v = &row;
    std::size_t pos = 0;
    for (;;) {
      const std::size_t dot = field.find('.', pos);
      const std::string k = field.substr(pos, dot == std::string::npos ? field.npos : dot - pos);
      if (!v->is_object() || !v->contains(k)) break;
      v = &(*v)[k];
      if (dot == std::string::npos) {
        if (v->is_number()) return v->get<double>();
        if (v->is_array() && !v->empty() && (*v)[0].is_number())
          return median(v->get<std::vector<double>>());
        break;
      }
      pos = dot + 1;
    }
    throw InputError(file_, 0, fmt::format("{}[{}].{}", rows_path, i, field),
                     "missing, or not a number or list of numbers");
  }
  // A measurement of the same call at one more size, from another section (e.g. the pipeline's
  // size, which the rows do not reach).
  struct ExtraPoint {
    double gib;          // GiB
    double seconds;      // s
    std::string source;  // where in the raw file, and how it was measured
  };
  // {fixed: s, per_gib: s/GiB} fitted here (fit_cost: relative residuals, fixed part >= 0) over
  // the per-size values of `field` in the rows at `rows_path` (x = row.bytes in GiB) and the
  // `extra` points.
  void cost(const std::string& key, const std::string& rows_path, const std::string& field,
            const std::string& what, const std::vector<ExtraPoint>& extra = {}) {
    const Json& rows = r_.array(rows_path);
    std::vector<double> x, y;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      x.push_back(row_value(rows[i], rows_path, i, "bytes") / 1073741824.0);
      y.push_back(row_value(rows[i], rows_path, i, field));
    }
    const double rows_lo = x.front(), rows_hi = x.back();
    std::string with;
    for (const ExtraPoint& p : extra) {
      x.push_back(p.gib);
      y.push_back(p.seconds);
      with += fmt::format("; and {} GiB: {:.6g} s ({})", p.gib, p.seconds, p.source);
    }
    const CostFit f = fit_cost(x, y, true);
    const std::string how = fmt::format(
        "{} {} ({}): medians at {} sizes {:.4g}..{:.4g} GiB{}, least-squares fit of relative "
        "residuals{} (rms {:.3f}, max {:.3f})",
        rows_path.substr(std::string("sections.").size()), field, what, rows.size(), rows_lo,
        rows_hi, with, f.clamped ? ", fixed part clamped to 0 (free intercept was negative)" : "",
        f.rms_rel_residual, f.max_rel_residual);
    e_ << YAML::Key << key << YAML::Value << YAML::BeginMap;
    quantity("fixed", f.fixed, "s", how);
    quantity("per_gib", f.slope, "s/GiB", how);
    e_ << YAML::EndMap;
  }

 private:
  const Raw& r_;
  std::string file_;
  std::string ref_;
  bool quick_;
  YAML::Emitter e_;
};

void emit_direction(Writer& w, const char* dir) {
  const Raw& r = w.r();
  YAML::Emitter& e = w.e();
  e << YAML::Key << dir << YAML::Value << YAML::BeginMap;
  for (const char* kind : {"pinned", "pageable"}) {
    const std::string base = fmt::format("sections.pcie.bandwidth.{}.{}", dir, kind);
    e << YAML::Key << kind << YAML::Value << YAML::BeginMap;
    {
      const Json& rows = r.array(base + ".rows");
      std::vector<double> x, y;
      for (std::size_t i = 0; i < rows.size(); ++i) {
        x.push_back(w.row_value(rows[i], base + ".rows", i, "bytes"));
        y.push_back(w.row_value(rows[i], base + ".rows", i, "median_s"));
      }
      const CostFit f = fit_cost(x, y, true);
      if (!f.clamped)
        w.quantity("latency", f.fixed, "s",
                   fmt::format("pcie.bandwidth.{}.{}: time = latency + bytes / bandwidth, "
                               "least-squares fit of relative residuals over the medians at {} "
                               "sizes (rms {:.3f}, max {:.3f}; asymptotic bandwidth {:.4g} B/s)",
                               dir, kind, f.points, f.rms_rel_residual, f.max_rel_residual,
                               1.0 / f.slope));
      else
        w.quantity("latency", y.front(), "s",
                   fmt::format("pcie.bandwidth.{}.{}: median time of the {} B copy (a fit's "
                               "intercept was negative)",
                               dir, kind, x.front()));
    }
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
      auto find_case = [&](const std::string& name) -> const Json& {
        for (const Json& k : r.array("sections.pcie.pageable_blocking"))
          if (k.value("case", "") == name) return k;
        throw InputError(w.file(), 0, "sections.pcie.pageable_blocking", "no case " + name);
      };
      const Json& idle = find_case(fmt::format("{}_pageable_idle_stream", dir));
      const Json& busy = find_case(fmt::format("{}_pageable_busy_stream", dir));
      w.quantity("blocks_host_thread",
                 r.boolean(fmt::format("sections.pcie.summary.{}_pageable_blocks_host", dir)),
                 "bool",
                 fmt::format("pcie.pageable_blocking {}: host clock around cudaMemcpyAsync of "
                             "{} B took {:.4g} s, the copy (CUDA events) {:.4g} s, medians of {} "
                             "(blocks = call >= half the copy)",
                             idle.value("case", ""), idle.value("bytes", 0ull),
                             idle.value("median_call_s", 0.0), idle.value("median_copy_s", 0.0),
                             idle.value("call_s", Json::array()).size()));
      std::string small;
      if (std::string(dir) == "h2d") {
        const Json& s = find_case("h2d_pageable_64KiB_busy_stream");
        small = fmt::format("; but a {} B copy behind the same kernel returned after {:.3g} s",
                            s.value("bytes", 0ull), s.value("median_call_s", 0.0));
      }
      w.quantity(
          "waits_for_stream",
          r.boolean(fmt::format("sections.pcie.summary.{}_pageable_waits_for_stream", dir)), "bool",
          fmt::format("pcie.pageable_blocking {}: a {} B copy queued behind a {} s kernel "
                      "on its stream returned after {:.4g} s (waits = call >= half the "
                      "kernel){}",
                      busy.value("case", ""), busy.value("bytes", 0ull),
                      busy.value("stream_busy_s", 0.0), busy.value("median_call_s", 0.0), small));
    }
    e << YAML::EndMap;
  }
  e << YAML::EndMap;
}

// Copies the estimate curves of a kernels file, except those named in `skip` (measured).
void emit_kernels(YAML::Emitter& e, const std::string& text, const std::string& file,
                  const std::set<std::string>& skip) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& x) {
    throw InputError(file, x.mark.line + 1, "", x.msg);
  }
  const YAML::Node k = root["kernels"];
  if (!k || !k.IsMap()) throw InputError(file, 0, "kernels", "expected a map of cost curves");
  for (const auto& curve : k) {
    const std::string name = curve.first.as<std::string>();
    if (skip.count(name)) continue;
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
}

}  // namespace

std::string build_calibration_yaml(const CalibrationInputs& in) {
  const Raw r(in.raw, in.raw_file);
  if (r.str("schema") != "prestage-probe-raw/1")
    throw InputError(in.raw_file, 0, "schema", "expected prestage-probe-raw/1");
  Writer w(r, in.raw_file, in.raw_ref, r.boolean("meta.quick"));
  YAML::Emitter& e = w.e();
  e << YAML::BeginMap;
  e << YAML::Key << "schema" << YAML::Value << "prestage-calibration/1";

  // device
  e << YAML::Key << "device" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "name" << YAML::Value << r.str("meta.device.name");
  e << YAML::Key << "driver" << YAML::Value << YAML::DoubleQuoted << r.str("meta.driver");
  e << YAML::Key << "cuda_runtime" << YAML::Value << r.at("meta.cuda_runtime").get<int>();
  e << YAML::Key << "measured_on" << YAML::Value << YAML::DoubleQuoted << r.str("meta.date");
  e << YAML::Key << "probe_commit" << YAML::Value << r.str("meta.commit");
  e << YAML::Key << "raw" << YAML::Value << in.raw_ref;
  w.quantity("total_memory", r.bytes("meta.meminfo_at_context_start.total"), "B",
             "meta.meminfo_at_context_start: cudaMemGetInfo total after context creation");
  w.quantity("free_at_context_start", r.bytes("meta.meminfo_at_context_start.free"), "B",
             "meta.meminfo_at_context_start: cudaMemGetInfo free right after context creation");
  e << YAML::EndMap;

  // pcie
  e << YAML::Key << "pcie" << YAML::Value << YAML::BeginMap;
  emit_direction(w, "h2d");
  emit_direction(w, "d2h");
  e << YAML::Key << "concurrency" << YAML::Value << YAML::BeginMap;
  const std::uint64_t cn = r.bytes("sections.pcie.summary.concurrency_bytes_each");
  for (const char* dir : {"h2d", "d2h"}) {
    const std::string base = fmt::format("sections.pcie.same_direction_{}", dir);
    const std::string key = std::string(dir) == "h2d" ? "same_direction" : "same_direction_d2h";
    // Verdict recomputed from the raw end times (classify_pair), not the raw `verdict` field.
    const Json& reps = r.array(base + ".repetitions");
    std::vector<double> ratios;
    int a_first = 0;
    for (std::size_t i = 0; i < reps.size(); ++i) {
      const std::string rp = base + ".repetitions";
      const PairVerdict v = classify_pair(
          {w.row_value(reps[i], rp, i, "a_start_s"), w.row_value(reps[i], rp, i, "a_end_s"),
           w.row_value(reps[i], rp, i, "b_start_s"), w.row_value(reps[i], rp, i, "b_end_s")});
      ratios.push_back(v.first_end_ratio);
      a_first += v.a_finished_first ? 1 : 0;
    }
    const double ratio = median(ratios);
    w.quantity(key, classify_pair({0, ratio, 0, 1}).verdict, "enum",
               fmt::format("pcie.same_direction_{}: two {} B copies on two streams released by "
                           "one event; the first finished at {:.3f} of the last one's time "
                           "(median of {}; shared >= 0.85, queued <= 0.6); the copy submitted "
                           "first finished first in {} of {}",
                           dir, cn, ratio, reps.size(), a_first, reps.size()));
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
  // The pipelines pin 12 GiB at once (three 4 GiB inputs at 2^27), beyond the rows' largest
  // size (4 GiB): the fits take the probe's 12 GiB registration alone too, where it measured one
  // (2026-12-07: at 12 GiB the rows' fit alone gave 0.372 s on session h's H100 against 0.401 s
  // measured there, and the staging runs' fastest registrations took 0.39-0.41 s).
  std::vector<Writer::ExtraPoint> reg_at_12, unreg_at_12;
  const double waits_gib = w.quick() ? 0.25 : 12;  // driver_waits' pinning size
  if (r.has("sections.driver_waits.alone.cudaHostRegister_s"))
    reg_at_12.push_back({waits_gib, r.num("sections.driver_waits.alone.cudaHostRegister_s"),
                         "driver_waits.alone.cudaHostRegister_s, median of its repetitions"});
  else if (r.has("sections.driver_serialisation.12GiB.register_alone_s"))
    reg_at_12.push_back({12, r.num("sections.driver_serialisation.12GiB.register_alone_s"),
                         "driver_serialisation.12GiB.register_alone_s, one call"});
  if (r.has("sections.driver_waits.alone.cudaHostUnregister_s"))
    unreg_at_12.push_back({waits_gib, r.num("sections.driver_waits.alone.cudaHostUnregister_s"),
                           "driver_waits.alone.cudaHostUnregister_s, median of its repetitions"});
  w.cost("host_register", "sections.host_memory.rows", "host_register_s", "cudaHostRegister",
         reg_at_12);
  w.cost("host_unregister", "sections.host_memory.rows", "host_unregister_s", "cudaHostUnregister",
         unreg_at_12);
  w.cost("malloc_host", "sections.host_memory.rows", "malloc_host_s", "cudaMallocHost");
  w.cost("free_host", "sections.host_memory.rows", "free_host_s", "cudaFreeHost");
  if (r.has("sections.driver_serialisation.12GiB")) {
    // Serialised when another thread's launch + sync waited at least half of the registration.
    const double reg =
        r.num("sections.driver_serialisation.12GiB.b_launch_sync.cudaHostRegister_s");
    const double waited =
        r.num("sections.driver_serialisation.12GiB.b_launch_sync.during_cudaHostRegister.max_s");
    w.quantity("pinning_serialises_driver", waited >= 0.5 * reg, "bool",
               fmt::format("driver_serialisation: another thread's kernel launch + stream sync "
                           "waited up to {:.3f} s during a {:.3f} s cudaHostRegister of 12 GiB",
                           waited, reg));
  }
  if (r.has("sections.driver_waits.summary.during_cudaHostRegister")) {
    const std::string k = "sections.driver_waits.summary.during_cudaHostRegister.";
    const double reg = r.num("sections.driver_waits.alone.cudaHostRegister_s");
    const double paced = r.num(k + "paced_step_stretch_over_a");
    w.quantity("pinning_stalls_paced_steps", paced >= 0.5, "bool",
               fmt::format("driver_waits.paced_sequence: 5 ms kernels each followed by a stream "
                           "sync took {:.2f} x the {:.3f} s of another thread's cudaHostRegister "
                           "longer than alone (1 = no progress during it)",
                           paced, reg));
    const double pageable = r.num(k + "copy_pageable_host_stretch_s");
    w.quantity("pinning_stalls_pageable_copies", pageable >= 0.5 * reg, "bool",
               fmt::format("driver_waits.copy_pageable: a pageable H2D copy started 5 ms before "
                           "another thread's {:.3f} s cudaHostRegister took {:.3f} s longer than "
                           "alone",
                           reg, pageable));
    const double issued = r.num(k + "copy_pinned_issued_inside_host_stretch_s");
    w.quantity("pinning_delays_copy_issue", issued >= 0.5 * reg, "bool",
               fmt::format("driver_waits.copy_pinned_issued_inside: a pinned H2D copy issued "
                           "inside another thread's {:.3f} s cudaHostRegister returned {:.3f} s "
                           "later than alone (its cudaMemcpyAsync waits for the driver)",
                           reg, issued));
    w.quantity("pinning_delays_pool_alloc", r.boolean(k + "pool_alloc_waits"), "bool",
               "driver_waits.pool_alloc: a cudaMallocAsync issued inside another thread's "
               "cudaHostRegister returned only after it");
    if (r.has(k + "meminfo_waits"))
      w.quantity("pinning_delays_meminfo", r.boolean(k + "meminfo_waits"), "bool",
                 "driver_waits.meminfo_no_sync: a cudaMemGetInfo issued inside another "
                 "thread's cudaHostRegister returned only after it (took at least half of it)");
  }
  if (r.has("sections.driver_waits.cases.during_cudaHostUnregister.launch_while_device_busy")) {
    const std::string k = "sections.driver_waits.cases.during_cudaHostUnregister.";
    const double busy = r.num(k + "launch_while_device_busy.device_busy_after_a_start_s");
    const double waited = r.num(k + "launch_while_device_busy.max_call_during_a_s");
    const double a_s = r.num(k + "launch_while_device_busy.a_s");
    w.quantity("unregister_holds_driver_while_waiting",
               r.boolean("sections.driver_waits.summary.during_cudaHostUnregister."
                         "driver_held_while_waiting_for_device"),
               "bool",
               fmt::format("driver_waits.launch_while_device_busy: with {:.3f} s of another "
                           "stream's kernel left when cudaHostUnregister started, the call took "
                           "{:.3f} s and another thread's kernel launch waited up to {:.3f} s "
                           "(held while waiting: launch wait >= the call's work alone + half the "
                           "kernel's rest)",
                           busy, a_s, waited));
  }
  if (r.has("sections.msm_streaming.summary.during_registration")) {
    // Stalled when every measured MSM took at least half the registration's time longer.
    const std::string k = "sections.msm_streaming.summary.during_registration.";
    double least = 1e9;
    std::string each;
    for (const char* shape : {"uniform", "porep"})
      for (const char* where : {"streamed", "resident"}) {
        const std::string p = k + shape + "." + where + ".stretch_over_register";
        if (!r.has(p)) continue;
        least = std::min(least, r.num(p));
        each += fmt::format("{}{} {} {:.2f}", each.empty() ? "" : ", ", shape, where, r.num(p));
      }
    if (!each.empty())
      w.quantity("pinning_stalls_msm", least >= 0.5, "bool",
                 fmt::format("msm_streaming.during_registration: an MSM at 2^27 started beside "
                             "another thread's cudaHostRegister of 12 GiB took this share of "
                             "the registration's time longer than alone (1 = no progress during "
                             "it): {}",
                             each));
  }
  if (r.has("sections.h_during_registration.summary.h_input.stretch_over_register") &&
      r.has("sections.h_during_registration.summary.coset_intt.stretch_over_register")) {
    // Stalled when both H steps took at least half the registration's time longer.
    const std::string k = "sections.h_during_registration.summary.";
    const double hi = r.num(k + "h_input.stretch_over_register");
    const double ci = r.num(k + "coset_intt.stretch_over_register");
    w.quantity(
        "pinning_stalls_h", std::min(hi, ci) >= 0.5, "bool",
        fmt::format("h_during_registration: the H input chain and the coset inverse NTT at "
                    "2^{:.0f}, started beside another thread's 12 GiB cudaHostRegister, took "
                    "{:.2f} and {:.2f} of the registration's time longer than alone (1 = no "
                    "progress during it)",
                    r.num(k + "log2_n"), hi, ci));
  }
  if (r.has("sections.driver_waits.cases.during_cudaHostRegister.handoff_malloc") &&
      r.has("sections.driver_waits.cases.during_cudaHostUnregister.handoff_malloc")) {
    // The waiter resumes after the holder's next call when the holder went first in most
    // repetitions of both cases; the figure is the mean of the two cases' medians.
    const std::string k = "sections.driver_waits.cases.during_cudaHost";
    double lag = 0;
    bool holder_first = true;
    std::string each;
    for (const char* call : {"Register", "Unregister"}) {
      const std::string p = k + call + ".handoff_malloc.";
      const double first = r.num(p + "holder_first"), reps = r.num(p + "reps");
      holder_first = holder_first && 2 * first > reps;
      lag += 0.5 * r.num(p + "b_return_after_a_next_return_s");
      each += fmt::format("{}cudaHost{}: holder first {:.0f} of {:.0f}, waiter {:.6f} s after",
                          each.empty() ? "" : "; ", call, first, reps,
                          r.num(p + "b_return_after_a_next_return_s"));
    }
    w.quantity("pinning_handoff", holder_first ? lag : 0.0, "s",
               fmt::format("driver_waits.*.handoff_malloc: a cudaMalloc that waited for another "
                           "thread's pinning call against that thread's next cudaMalloc, issued "
                           "when its call returned ({}); 0 unless the holder went first",
                           each));
  }
  e << YAML::EndMap;

  // device memory
  e << YAML::Key << "device_memory" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "sync_allocator" << YAML::Value << YAML::BeginMap;
  w.quantity("granularity", r.bytes("sections.granularity.summary.sync_granularity"), "B",
             fmt::format("granularity.sync: gcd of cudaMemGetInfo drops per cudaMalloc of sizes "
                         "> 2 MiB (rounding-up reproduces every drop: {})",
                         r.boolean("sections.granularity.summary.sync_granularity_consistent")));
  w.cost("malloc", "sections.sync_allocator_costs.rows", "malloc_s", "cudaMalloc, host clock");
  w.cost("free", "sections.sync_allocator_costs.rows", "free_s",
         "cudaFree, host clock, device idle");
  w.quantity("free_synchronizes_device",
             r.boolean("sections.device_sync_calls.summary.free_synchronizes_device"), "bool",
             "device_sync_calls: cudaFree while a kernel runs on another stream, host clock");
  w.quantity("largest_allocation", r.bytes("sections.largest_allocation.summary.sync_largest"), "B",
             "largest_allocation.sync: bisection to 2 MiB of single cudaMalloc calls");
  if (r.has("sections.free_release.summary.released_before_free_returns"))
    w.quantity("free_releases_before_return",
               r.boolean("sections.free_release.summary.released_before_free_returns"), "bool",
               fmt::format("free_release: another thread's cudaMalloc that fits only in the "
                           "memory a running cudaFree gives back succeeded {:.0f} of {:.0f} times, "
                           "returning before the free {:.0f} times (free {:.6f} s; median "
                           "malloc end after free end {:.6f} s)",
                           r.num("sections.free_release.summary.b_succeeded"),
                           r.num("sections.free_release.summary.reps"),
                           r.num("sections.free_release.summary.b_returned_before_a"),
                           r.num("sections.free_release.summary.a_free_s"),
                           r.num("sections.free_release.summary.b_end_after_a_end_s")));
  // free_holds_driver's two rows: what another thread's calls (`calls`; the longest is its
  // `longest`) did beside a cudaFree that waited behind a kernel.
  const auto free_row = [&](const char* key, const std::string& row, const char* calls,
                            const char* longest, const char* verdict) {
    const std::string at = "sections.free_holds_driver.rows." + row + ".";
    if (!r.has("sections.free_holds_driver.summary.free_holds_driver_for_" + row)) return;
    w.quantity(key, r.boolean("sections.free_holds_driver.summary.free_holds_driver_for_" + row),
               "bool",
               fmt::format("free_holds_driver: thread B's back-to-back {} beside thread A's "
                           "cudaFree ({:.6f} s) that waited behind a kernel: longest {} {:.6f} "
                           "s, {:.6f} s beside the kernel alone ({}: more than half of the free "
                           "beyond that)",
                           calls, r.num(at + "a_s"), longest, r.num(at + "longest_call_during_a_s"),
                           r.num(at + "longest_call_alone_s"), verdict));
  };
  free_row("free_holds_driver_while_waiting", "meminfo", "cudaMemGetInfo", "call", "held");
  free_row("free_blocks_launches", "launch", "kernel launches", "launch", "blocked");
  e << YAML::EndMap;

  e << YAML::Key << "pool" << YAML::Value << YAML::BeginMap;
  w.quantity("granularity", r.bytes("sections.granularity.summary.pool_granularity"), "B",
             "granularity.pool: gcd of the reserved-memory growth of single cudaMallocAsync "
             "calls of 1 B .. 1 GiB + 1 on a trimmed default pool");
  w.quantity("minimum_reservation",
             r.bytes("sections.granularity.summary.pool_minimum_reservation"), "B",
             "granularity.pool: reserved memory after one 1 B cudaMallocAsync on a trimmed pool");
  w.cost("malloc_async", "sections.pool_costs.rows", "malloc_async_cold_s",
         "cold cudaMallocAsync on a trimmed pool + stream sync");
  w.cost("malloc_async_warm", "sections.pool_costs.rows", "malloc_async_warm_s",
         "cudaMallocAsync served from the idle pool + stream sync");
  w.cost("free_async", "sections.pool_costs.rows", "free_async_call_s", "cudaFreeAsync call");
  w.cost("release_at_sync", "sections.pool_costs.rows", "release_at_stream_sync_s",
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
             [&] {
               for (const Json& t : r.array("sections.pool_vs_cudamalloc.trials"))
                 if (t.value("name", "") == "idle_pool_threshold_max" && t.contains("cuda_malloc"))
                   return fmt::format(
                       "pool_vs_cudamalloc idle_pool_threshold_max: card filled through the pool, "
                       "all freed and synchronised (threshold UINT64_MAX), then cudaMalloc of "
                       "half the card: {} after {:.3g} s",
                       t["cuda_malloc"].value("error", ""), t["cuda_malloc"].value("call_s", 0.0));
               throw InputError(w.file(), 0, "sections.pool_vs_cudamalloc.trials",
                                "no idle_pool_threshold_max trial");
             }());
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
  w.cost("trim", "sections.pool_costs.rows", "trim_s",
         "cudaMemPoolTrimTo(pool, 0) of an idle block");
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
  {
    // API names (the probe's call id up to its first '_') of the calls that waited, and the full
    // ids of those that did not.
    Json waited = Json::array(), not_waited = Json::array();
    const Json& rows = r.array("sections.device_sync_calls.rows");
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const std::string key = fmt::format("sections.device_sync_calls.rows[{}]", i);
      if (!rows[i].contains("call") || !rows[i]["call"].is_string() ||
          !rows[i].contains("waited_for_other_stream") ||
          !rows[i]["waited_for_other_stream"].is_boolean())
        throw InputError(w.file(), 0, key, "needs call and waited_for_other_stream");
      const std::string id = rows[i]["call"];
      const std::string api = id.substr(0, id.find('_'));
      if (!rows[i]["waited_for_other_stream"].get<bool>())
        not_waited.push_back(id);
      else if (std::find(waited.begin(), waited.end(), api) == waited.end())
        waited.push_back(api);
    }
    const std::string how = fmt::format(
        "device_sync_calls: host clock around each call while a {} s kernel runs on another "
        "stream; waited = median of the repetitions >= half of it",
        r.num("sections.device_sync_calls.summary.kernel_s"));
    w.list_quantity("calls_that_synchronize_device", waited, how);
    w.list_quantity("calls_that_do_not_synchronize_device", not_waited, how);
  }
  e << YAML::EndMap;

  const bool streaming = r.has("sections.msm_streaming.summary.points");
  if (!in.kernels_yaml.empty() || !in.gpu_bench.is_null() || streaming) {
    e << YAML::Key << "kernels" << YAML::Value << YAML::BeginMap;
    std::set<std::string> measured;
    if (!in.gpu_bench.is_null())
      measured = emit_bench_kernels(
          e, BenchInputs{in.gpu_bench, in.gpu_bench_file,
                         in.gpu_bench_ref.empty() ? in.gpu_bench_file : in.gpu_bench_ref,
                         in.extrapolate_log2_n});
    if (streaming) {
      // The G1 MSMs with the key's points streamed from pinned host memory (workload.key_points:
      // streamed): msm_g1_streamed (uniform scalars, the H MSM) and msm_g1_porep_streamed.
      const Json& pts = r.array("sections.msm_streaming.summary.points");
      for (const auto& [curve, shape, what] :
           {std::tuple<const char*, const char*, const char*>{
                "msm_g1_streamed", "uniform",
                "G1 MSM, points streamed from pinned host memory, uniform random scalars"},
            {"msm_g1_porep_streamed", "porep",
             "G1 MSM, points streamed from pinned host memory, PoRep-shaped scalars"}}) {
        std::vector<std::pair<int, double>> xy;
        std::vector<std::string> src;
        for (std::size_t i = 0; i < pts.size(); ++i) {
          const std::string at = fmt::format("sections.msm_streaming.summary.points[{}]", i);
          const Json& p = pts[i];
          if (!p.is_object() || !p.contains("scalars") || !p.contains("log2_n") ||
              !p.contains("streamed_s") || !p["streamed_s"].is_number())
            throw InputError(in.raw_file, 0, at, "expected log2_n, scalars and streamed_s");
          if (p["scalars"] != shape) continue;
          const double v = p["streamed_s"].get<double>();
          if (!(v > 0)) throw InputError(in.raw_file, 0, at + ".streamed_s", "expected > 0 s");
          xy.emplace_back(p["log2_n"].get<int>(), v);
          src.push_back(fmt::format(
              "probe msm_streaming 2^{} {}: msm::on_device_streamed, median of {} (CUDA events), "
              "chunk {} points, workspace {} B (supraseal_c2.yaml's msm_scratch), {} B over "
              "H2D; resident in the same workspace: {}; raw: {}",
              p["log2_n"].get<int>(), shape, p.value("streamed_samples_s", Json::array()).size(),
              p.value("chunk_points", std::uint64_t{0}), p.value("workspace_B", std::uint64_t{0}),
              p.value("h2d_bytes", 0.0),
              p.value("resident_s", -1.0) > 0 ? fmt::format("{:.6g} s", p.value("resident_s", -1.0))
                                              : std::string("does not fit (XYZZ needs more)"),
              in.raw_ref));
        }
        if (xy.empty()) continue;
        emit_measured_msm_curve(e, curve, xy, src, what, in.extrapolate_log2_n);
        measured.insert(curve);
      }
      // One curve per workspace size in B a point, <curve>_ws<B>, from the points whose
      // measurement `read` returns (workspace B, seconds, source text; none: 0 s), only at the
      // sizes measured (not extrapolated).
      using Read = std::function<std::tuple<double, double, std::string>(const Json&, int,
                                                                         const std::string&)>;
      const auto per_workspace = [&](const Json& rows, const std::string& group,
                                     const std::string& curve, const std::string& shape,
                                     const std::string& what, const Read& read) {
        std::map<long, std::pair<std::vector<std::pair<int, double>>, std::vector<std::string>>>
            by_ws;
        for (std::size_t i = 0; i < rows.size(); ++i) {
          const Json& p = rows[i];
          if (p.value("scalars", std::string()) != shape) continue;
          const int log_n = p["log2_n"].get<int>();
          const auto [ws, t, source] = read(p, log_n, shape);
          if (!(ws > 0) || !(t > 0)) continue;
          auto& [xy, src] = by_ws[std::lround(ws / std::exp2(log_n))];
          xy.emplace_back(log_n, t);
          src.push_back(source);
        }
        for (const auto& [per_point, curve_pts] : by_ws) {
          const std::string name = fmt::format("{}_ws{}", curve, per_point);
          emit_measured_msm_curve(e, name, curve_pts.first, curve_pts.second,
                                  fmt::format("{} MSM, {}, {} scalars, workspace {} B a point",
                                              group, what, shape, per_point),
                                  {});
          measured.insert(name);
        }
      };
      // A row's own measurement of `kind` (streamed or resident: <kind>_s, <kind>_samples_s) in
      // its workspace, the MSM scratch of `pipeline`; `label` and `chunk` only name it.
      const auto own_row = [&](std::string kind, std::string label, std::string how,
                               std::string pipeline, bool chunk) -> Read {
        return [=, &in](const Json& p, int log_n, const std::string& sh) {
          const double ws = p.value("workspace_B", 0.0);
          return std::tuple{
              ws, p.value(kind + "_s", -1.0),
              fmt::format("probe msm_streaming {}2^{} {}: {}, in a workspace of {} B ({}'s "
                          "msm_scratch){}, median of {} (CUDA events); raw: {}",
                          label, log_n, sh, how, static_cast<std::uint64_t>(ws), pipeline,
                          chunk ? fmt::format(", chunk {} points",
                                              p.value("chunk_points", std::uint64_t{0}))
                                : std::string(),
                          p.value(kind + "_samples_s", Json::array()).size(), in.raw_ref)};
        };
      };
      // The MSMs with their points resident, in the same workspace: the memory axis of the
      // resident curves (the gpu_bench curves msm_g1 / msm_g1_porep are measured with the
      // workspace the kernels choose; at 2^24 the XYZZ variant does not fit 40.5 B a point). At
      // 2^27 on session h's H100: 0.866 s against msm_g1's 0.846 s.
      for (const auto& [curve, shape] :
           {std::pair<const char*, const char*>{"msm_g1", "uniform"}, {"msm_g1_porep", "porep"}})
        per_workspace(pts, "G1", curve, shape, "points resident",
                      own_row("resident", "", "msm::on_device with the points resident",
                              "supraseal_c2.yaml", false));
      // The same MSMs in another pipeline's workspace (`at_n24_pipeline`: the 2^24 pipeline's
      // msm_scratch; the streamed time follows the chunk that workspace allows).
      for (const auto& [curve, shape] :
           {std::pair<const char*, const char*>{"msm_g1_streamed", "uniform"},
            {"msm_g1_porep_streamed", "porep"}})
        per_workspace(
            pts, "G1", curve, shape, "points streamed",
            [&](const Json& p, int log_n, const std::string& sh) {
              if (!p.contains("at_n24_pipeline") || !p["at_n24_pipeline"].is_object())
                return std::tuple{0.0, 0.0, std::string()};
              const Json& q = p["at_n24_pipeline"];
              const double ws = q.value("workspace_B", 0.0);
              return std::tuple{
                  ws, q.value("streamed_s", 0.0),
                  fmt::format("probe msm_streaming 2^{} {}: msm::on_device_streamed in a workspace "
                              "of {} B (supraseal_c2_n24.yaml's msm_scratch), chunk {} points, "
                              "median of {} (CUDA events); raw: {}",
                              log_n, sh, static_cast<std::uint64_t>(ws),
                              q.value("chunk_points", std::uint64_t{0}),
                              q.value("streamed_samples_s", Json::array()).size(), in.raw_ref)};
            });
      // B_G2 on the GPU (`g2_porep`, probes since 2026-12-07): the G2 MSM on PoRep-shaped scalars
      // in the B_G2 pipeline's workspace, streamed (msm_g2_porep_streamed_ws<B>) and resident
      // (msm_g2_porep_ws<B>); the model takes the curve of its pipeline's workspace.
      if (r.has("sections.msm_streaming.summary.g2_porep") &&
          r.at("sections.msm_streaming.summary.g2_porep").is_array()) {
        const Json& g2 = r.at("sections.msm_streaming.summary.g2_porep");
        per_workspace(g2, "G2", "msm_g2_porep_streamed", "porep", "points streamed",
                      own_row("streamed", "g2_porep ", "msm::on_device_streamed",
                              "supraseal_c2_b_g2_gpu.yaml", true));
        per_workspace(g2, "G2", "msm_g2_porep", "porep", "points resident",
                      own_row("resident", "g2_porep ", "msm::on_device with the points resident",
                              "supraseal_c2_b_g2_gpu.yaml", true));
      }
    }
    if (!in.kernels_yaml.empty()) emit_kernels(e, in.kernels_yaml, in.kernels_file, measured);
    e << YAML::EndMap;
  }
  if (r.has("sections.msm_workspace.rows")) {
    // The least workspace one MSM call takes, per curve and size (probe msm_workspace): the
    // simulator's test of a resident-points MSM against its pipeline's workspace, and its split
    // into pieces, as the staging runtime's (model/msm_split.hpp).
    const Json& rows = r.array("sections.msm_workspace.rows");
    e << YAML::Key << "msm_workspace" << YAML::Value << YAML::BeginMap;
    for (const char* curve : {"g1", "g2"}) {
      e << YAML::Key << curve << YAML::Value << YAML::BeginSeq;
      for (std::size_t i = 0; i < rows.size(); ++i) {
        const std::string at = fmt::format("sections.msm_workspace.rows[{}]", i);
        const Json& p = rows[i];
        if (!p.is_object() || !p.contains("curve") || !p.contains("log2_n") ||
            !p.contains("least_B") || !p["least_B"].is_number_unsigned() ||
            !p.contains("default_B") || !p["default_B"].is_number_unsigned())
          throw InputError(in.raw_file, 0, at, "expected curve, log2_n, default_B and least_B");
        if (p["curve"] != curve) continue;
        const int log_n = p["log2_n"].get<int>();
        const auto least = p["least_B"].get<std::uint64_t>();
        if (least == 0) throw InputError(in.raw_file, 0, at + ".least_B", "expected > 0 B");
        e << YAML::Flow << YAML::BeginMap << YAML::Key << "log2_n" << YAML::Value << log_n
          << YAML::Key << "value" << YAML::Value << least << YAML::Key << "unit" << YAML::Value
          << "B" << YAML::Key << "source" << YAML::Value
          << fmt::format(
                 "probe msm_workspace {} 2^{}: msm::device_workspace_bytes with "
                 "msm::least_workspace_options (XYZZ, scalars read per window group), "
                 "the least one MSM call takes; with the default options {} B; raw: {}",
                 curve, log_n, p["default_B"].get<std::uint64_t>(), in.raw_ref)
          << YAML::EndMap;
      }
      e << YAML::EndSeq;
    }
    e << YAML::EndMap;
  }
  e << YAML::EndMap;
  if (!e.good()) throw std::runtime_error("YAML emitter: " + e.GetLastError());
  return std::string(e.c_str()) + "\n";
}

}  // namespace prestage::probe
