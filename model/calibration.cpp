#include "model/calibration.hpp"

#include <algorithm>
#include <cmath>

#include "model/yaml_input.hpp"

namespace prestage::model {
using yaml::In;

double Curve::at(double size) const {
  double x = std::log2(std::max(size, 1.0));
  if (has_model) {
    for (const auto& p : pts)
      if (std::abs(p.first - x) < 1e-9) return p.second;
    return model.at(std::max(size, 1.0));
  }
  if (pts.size() == 1 || x <= pts.front().first) {
    const auto& p = pts.front();
    return clamp ? p.second : p.second * std::exp2(x - p.first);
  }
  if (x >= pts.back().first) {
    const auto& p = pts.back();
    return clamp ? p.second : p.second * std::exp2(x - p.first);
  }
  std::size_t i = 1;
  while (pts[i].first < x) ++i;
  const auto& a = pts[i - 1];
  const auto& b = pts[i];
  double f = (x - a.first) / (b.first - a.first);
  return a.second + f * (b.second - a.second);
}

double Calibration::pcie_bandwidth(bool h2d_dir, bool pinned, double bytes) const {
  const LinkDirection& d = h2d_dir ? h2d : d2h;
  return (pinned ? d.pinned_bandwidth : d.pageable_bandwidth).at(bytes);
}
double Calibration::pcie_latency(bool h2d_dir, bool pinned) const {
  const LinkDirection& d = h2d_dir ? h2d : d2h;
  return pinned ? d.pinned_latency_s : d.pageable_latency_s;
}

const char* to_string(SyncKind k) {
  switch (k) {
    case SyncKind::none:
      return "none";
    case SyncKind::stream:
      return "stream";
    case SyncKind::event:
      return "event";
    case SyncKind::device:
      return "device";
  }
  return "?";
}
const char* to_string(ReuseRule r) {
  switch (r) {
    case ReuseRule::immediate:
      return "immediate";
    case ReuseRule::after_free_completes:
      return "after_free_completes";
    case ReuseRule::after_event:
      return "after_event";
    case ReuseRule::after_sync:
      return "after_sync";
    case ReuseRule::never:
      return "never";
  }
  return "?";
}
const char* to_string(TrimPending t) {
  switch (t) {
    case TrimPending::skips_pending:
      return "skips_pending";
    case TrimPending::waits_then_releases:
      return "waits_then_releases";
    case TrimPending::waits_without_release:
      return "waits_without_release";
    case TrimPending::releases_immediately:
      return "releases_immediately";
  }
  return "?";
}

namespace {

enum class Dim { bytes, seconds, bandwidth, per_gib };

double unit_factor(const In& q, Dim dim) {
  std::string u = q.at("unit").str();
  struct U {
    const char* name;
    double f;
  };
  static const U bytes[] = {{"B", 1}, {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", kGiB}};
  static const U secs[] = {{"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}};
  static const U bw[] = {
      {"B/s", 1}, {"MB/s", 1e6}, {"GB/s", 1e9}, {"MiB/s", 1048576.0}, {"GiB/s", kGiB}};
  static const U pg[] = {{"s/GiB", 1}, {"ms/GiB", 1e-3}, {"us/GiB", 1e-6}};
  const U* b = nullptr;
  std::size_t n = 0;
  switch (dim) {
    case Dim::bytes:
      b = bytes;
      n = 4;
      break;
    case Dim::seconds:
      b = secs;
      n = 4;
      break;
    case Dim::bandwidth:
      b = bw;
      n = 5;
      break;
    case Dim::per_gib:
      b = pg;
      n = 3;
      break;
  }
  std::string list;
  for (std::size_t i = 0; i < n; ++i) {
    if (u == b[i].name) return b[i].f;
    list += (i ? ", " : "") + std::string(b[i].name);
  }
  q.at("unit").fail("unit '" + u + "' not allowed here (expected one of: " + list + ")");
}

void require_source(const In& q) {
  if (q.at("source").str().empty())
    q.at("source").fail("source must say where the number came from");
}

// {value, unit, source} -> SI value.
double quantity(const In& q, Dim dim, bool positive = false) {
  q.expect_map({"value", "unit", "source"});
  require_source(q);
  double f = unit_factor(q, dim);
  double v = positive ? q.at("value").positive() : q.at("value").non_negative();
  return v * f;
}

template <class F>
auto typed_value(const In& q, const char* unit, F read) {
  q.expect_map({"value", "unit", "source"});
  require_source(q);
  if (q.at("unit").str() != unit) q.at("unit").fail(std::string("expected unit '") + unit + "'");
  return read(q.at("value"));
}

bool flag(const In& q) {
  return typed_value(q, "bool", [](const In& v) { return v.boolean(); });
}

CostFn cost(const In& q) {
  q.expect_map({"fixed", "per_gib"});  // per_gib may be omitted (a size-independent cost)
  CostFn c;
  c.fixed_s = quantity(q.at("fixed"), Dim::seconds);
  if (q.has("per_gib")) c.per_gib_s = quantity(q.at("per_gib"), Dim::per_gib);
  return c;
}

// [{<xkey>: size, value, unit, source}, ...] with sizes strictly ascending.
Curve curve(const In& q, const char* xkey, Dim dim, bool clamp) {
  Curve c;
  c.clamp = clamp;
  std::size_t n = q.size();
  if (n == 0) q.fail("a curve needs at least one point");
  for (std::size_t i = 0; i < n; ++i) {
    In p = q.item(i);
    p.expect_map({xkey, "value", "unit", "source"});
    require_source(p);
    double x = std::string(xkey) == "log2_n" ? p.at(xkey).num() : std::log2(p.at(xkey).positive());
    double y = p.at("value").positive() * unit_factor(p, dim);
    if (!c.pts.empty() && x <= c.pts.back().first)
      p.at(xkey).fail("curve points must be strictly ascending in size");
    c.pts.emplace_back(x, y);
  }
  return c;
}

// A kernel curve: a list of points (piecewise-linear in log2 n, linear in n beyond), or a map
// {points, fit, extrapolated} whose fit gives the time at every size not measured (SCHEMA.md).
Curve kernel_curve(const In& q) {
  if (q.is_seq()) return curve(q, "log2_n", Dim::seconds, false);
  q.expect_map({"points", "fit", "extrapolated"});
  Curve c = curve(q.at("points"), "log2_n", Dim::seconds, false);
  if (!q.has("fit")) {
    if (q.has("extrapolated")) q.at("extrapolated").fail("extrapolated points need a fit");
    return c;
  }
  In f = q.at("fit");
  f.expect_map(
      {"model", "a", "b", "unit", "residuals", "rms_rel_residual", "max_rel_residual", "source"});
  require_source(f);
  if (!parse_kernel_form(f.at("model").str(), c.model.form))
    f.at("model").fail(std::string("unknown model (expected ") + to_string(KernelForm::n_log2_n) +
                       " or " + to_string(KernelForm::linear) + ")");
  const double u = unit_factor(f, Dim::seconds);
  c.model.a = f.at("a").positive() * u;
  c.model.b = f.at("b").non_negative() * u;
  c.has_model = true;
  In res = f.at("residuals");
  if (res.size() != c.pts.size()) res.fail("needs one residual per point");
  for (std::size_t i = 0; i < res.size(); ++i) {
    In r = res.item(i);
    r.expect_map({"log2_n", "rel"});
    r.at("log2_n").num();
    r.at("rel").num();
  }
  f.at("rms_rel_residual").non_negative();
  f.at("max_rel_residual").non_negative();
  if (q.has("extrapolated")) {
    // Recorded for readers (the fit's value at sizes the pipeline uses); each must agree with the
    // fit to the file's 6 significant digits, so a hand edit cannot drift from the model.
    const Curve e = curve(q.at("extrapolated"), "log2_n", Dim::seconds, false);
    for (std::size_t i = 0; i < e.pts.size(); ++i) {
      const double want = c.model.at(std::exp2(e.pts[i].first));
      if (std::abs(e.pts[i].second - want) > 1e-5 * want)
        q.at("extrapolated")
            .item(i)
            .at("value")
            .fail("disagrees with the fit (" + std::to_string(want) + " s)");
      for (const auto& p : c.pts)
        if (std::abs(p.first - e.pts[i].first) < 1e-9)
          q.at("extrapolated").item(i).at("log2_n").fail("this size is measured (in points)");
      if (q.at("extrapolated").item(i).at("source").str().rfind("estimate:", 0) != 0)
        q.at("extrapolated")
            .item(i)
            .at("source")
            .fail("an extrapolation must say \"estimate: ...\"");
    }
  }
  return c;
}

LinkDirection direction(const In& q) {
  q.expect_map({"pinned", "pageable"});
  LinkDirection d;
  In pin = q.at("pinned");
  pin.expect_map({"latency", "bandwidth"});
  d.pinned_latency_s = quantity(pin.at("latency"), Dim::seconds);
  d.pinned_bandwidth = curve(pin.at("bandwidth"), "bytes", Dim::bandwidth, true);
  In pg = q.at("pageable");
  pg.expect_map({"latency", "bandwidth", "blocks_host_thread", "waits_for_stream"});
  d.pageable_latency_s = quantity(pg.at("latency"), Dim::seconds);
  d.pageable_bandwidth = curve(pg.at("bandwidth"), "bytes", Dim::bandwidth, true);
  d.pageable_blocks_host = flag(pg.at("blocks_host_thread"));
  if (pg.has("waits_for_stream")) d.pageable_waits_for_stream = flag(pg.at("waits_for_stream"));
  return d;
}

ReuseRule reuse(const In& q) {
  std::string s = typed_value(q, "enum", [](const In& v) {
    return v.choice({"immediate", "immediate_with_inserted_dependency", "after_free_completes",
                     "after_event", "after_sync", "never_without_sync", "never"});
  });
  if (s == "after_event") return ReuseRule::after_event;
  if (s == "after_sync" || s == "never_without_sync") return ReuseRule::after_sync;
  if (s == "never") return ReuseRule::never;
  if (s == "after_free_completes") return ReuseRule::after_free_completes;
  return ReuseRule::immediate;
}

std::vector<std::string> str_list(const In& q) {
  q.expect_map({"value", "unit", "source"});
  require_source(q);
  if (q.at("unit").str() != "list") q.at("unit").fail("expected unit 'list'");
  In v = q.at("value");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < v.size(); ++i) out.push_back(v.item(i).str());
  return out;
}

}  // namespace

Calibration parse_calibration(const In& root) {
  Calibration c;
  c.file = root.file();
  root.expect_map({"schema", "device", "pcie", "host_memory", "device_memory", "synchronization",
                   "kernels", "msm_workspace"});
  if (root.at("schema").str() != "prestage-calibration/1")
    root.at("schema").fail("unsupported schema (expected prestage-calibration/1)");

  In dev = root.at("device");
  dev.expect_map({"name", "driver", "cuda_runtime", "measured_on", "probe_commit", "raw",
                  "total_memory", "free_at_context_start", "note"});
  c.device_name = dev.at("name").str();
  c.driver = dev.at("driver").str();
  c.measured_on = dev.at("measured_on").str();
  if (dev.has("probe_commit")) c.probe_commit = dev.at("probe_commit").str();
  c.total_memory = quantity(dev.at("total_memory"), Dim::bytes, true);
  c.free_at_context_start = quantity(dev.at("free_at_context_start"), Dim::bytes, true);
  if (c.free_at_context_start > c.total_memory)
    dev.at("free_at_context_start").fail("larger than total_memory");

  In pcie = root.at("pcie");
  pcie.expect_map({"h2d", "d2h", "concurrency"});
  c.h2d = direction(pcie.at("h2d"));
  c.d2h = direction(pcie.at("d2h"));
  In con = pcie.at("concurrency");
  con.expect_map({"same_direction", "same_direction_aggregate", "same_direction_d2h",
                  "same_direction_d2h_aggregate", "bidirectional_aggregate"});
  // same_direction[_aggregate] is host-to-device (and device-to-host unless _d2h keys are given).
  auto sharing = [](const In& q) {
    std::string sd = typed_value(q, "enum", [](const In& v) {
      return v.choice({"shared", "queued"});
    });
    return sd == "shared" ? LinkSharing::shared : LinkSharing::queued;
  };
  c.h2d.sharing = c.d2h.sharing = sharing(con.at("same_direction"));
  c.h2d.aggregate = c.d2h.aggregate =
      quantity(con.at("same_direction_aggregate"), Dim::bandwidth, true);
  if (con.has("same_direction_d2h")) c.d2h.sharing = sharing(con.at("same_direction_d2h"));
  if (con.has("same_direction_d2h_aggregate"))
    c.d2h.aggregate = quantity(con.at("same_direction_d2h_aggregate"), Dim::bandwidth, true);
  c.bidirectional_aggregate = quantity(con.at("bidirectional_aggregate"), Dim::bandwidth, true);

  In hm = root.at("host_memory");
  hm.expect_map(
      {"host_register", "host_unregister", "malloc_host", "free_host", "pinning_serialises_driver",
       "pinning_stalls_paced_steps", "pinning_stalls_pageable_copies", "pinning_delays_copy_issue",
       "pinning_delays_pool_alloc", "unregister_holds_driver_while_waiting", "pinning_stalls_msm",
       "pinning_handoff", "pinning_stalls_h", "pinning_delays_meminfo"});
  c.host_register = cost(hm.at("host_register"));
  c.host_unregister = cost(hm.at("host_unregister"));
  c.malloc_host = cost(hm.at("malloc_host"));
  c.free_host = cost(hm.at("free_host"));
  if (hm.has("pinning_serialises_driver"))
    c.pinning_serialises_driver = flag(hm.at("pinning_serialises_driver"));
  if (hm.has("pinning_stalls_paced_steps"))
    c.pinning_stalls_paced_steps = flag(hm.at("pinning_stalls_paced_steps"));
  if (hm.has("pinning_stalls_pageable_copies"))
    c.pinning_stalls_pageable_copies = flag(hm.at("pinning_stalls_pageable_copies"));
  if (hm.has("unregister_holds_driver_while_waiting"))
    c.unregister_holds_driver_while_waiting = flag(hm.at("unregister_holds_driver_while_waiting"));
  if (hm.has("pinning_delays_copy_issue"))
    c.pinning_delays_copy_issue = flag(hm.at("pinning_delays_copy_issue"));
  if (hm.has("pinning_delays_pool_alloc"))
    c.pinning_delays_pool_alloc = flag(hm.at("pinning_delays_pool_alloc"));
  if (hm.has("pinning_delays_meminfo"))
    c.pinning_delays_meminfo = flag(hm.at("pinning_delays_meminfo"));
  if (hm.has("pinning_stalls_msm")) c.pinning_stalls_msm = flag(hm.at("pinning_stalls_msm"));
  if (hm.has("pinning_stalls_h")) c.pinning_stalls_h = flag(hm.at("pinning_stalls_h"));
  if (hm.has("pinning_handoff"))
    c.pinning_handoff_s = quantity(hm.at("pinning_handoff"), Dim::seconds);

  In dm = root.at("device_memory");
  dm.expect_map({"sync_allocator", "pool", "oom_sticky"});
  In sa = dm.at("sync_allocator");
  sa.expect_map({"granularity", "malloc", "free", "free_synchronizes_device", "largest_allocation",
                 "free_releases_before_return", "free_holds_driver_while_waiting",
                 "free_blocks_launches"});
  c.sync_granularity = quantity(sa.at("granularity"), Dim::bytes, true);
  c.sync_malloc = cost(sa.at("malloc"));
  c.sync_free = cost(sa.at("free"));
  c.free_synchronizes_device = flag(sa.at("free_synchronizes_device"));
  c.largest_allocation = quantity(sa.at("largest_allocation"), Dim::bytes, true);
  if (sa.has("free_releases_before_return"))
    c.free_releases_before_return = flag(sa.at("free_releases_before_return"));
  if (sa.has("free_holds_driver_while_waiting"))
    c.free_holds_driver_while_waiting = flag(sa.at("free_holds_driver_while_waiting"));
  if (sa.has("free_blocks_launches")) c.free_blocks_launches = flag(sa.at("free_blocks_launches"));
  In pool = dm.at("pool");
  pool.expect_map(
      {"granularity", "minimum_reservation", "malloc_async", "malloc_async_warm", "free_async",
       "release_at_sync", "release_threshold_default", "release_keeps_threshold",
       "reuse_same_stream", "reuse_other_stream", "released_to_os_by",
       "cudamalloc_reclaims_idle_pool", "cudamalloc_reclaims_pending_frees",
       "cudamalloc_reclaims_completed_frees_before_sync", "meminfo_counts_pool_reserved_as_used",
       "trim", "trim_with_pending_frees", "largest_allocation"});
  if (pool.has("minimum_reservation"))
    c.pool_minimum_reservation = quantity(pool.at("minimum_reservation"), Dim::bytes);
  if (pool.has("malloc_async_warm")) {
    c.has_pool_malloc_warm = true;
    c.pool_malloc_warm = cost(pool.at("malloc_async_warm"));
  }
  if (pool.has("release_at_sync")) c.pool_release_at_sync = cost(pool.at("release_at_sync"));
  if (pool.has("release_keeps_threshold"))
    c.release_keeps_threshold = flag(pool.at("release_keeps_threshold"));
  if (pool.has("cudamalloc_reclaims_pending_frees"))
    c.cudamalloc_reclaims_pending_frees = flag(pool.at("cudamalloc_reclaims_pending_frees"));
  if (pool.has("cudamalloc_reclaims_completed_frees_before_sync"))
    c.cudamalloc_reclaims_completed_frees_before_sync =
        flag(pool.at("cudamalloc_reclaims_completed_frees_before_sync"));
  if (pool.has("largest_allocation"))
    c.pool_largest_allocation = quantity(pool.at("largest_allocation"), Dim::bytes, true);
  c.pool_granularity = quantity(pool.at("granularity"), Dim::bytes, true);
  c.pool_malloc = cost(pool.at("malloc_async"));
  c.pool_free = cost(pool.at("free_async"));
  c.release_threshold_default = quantity(pool.at("release_threshold_default"), Dim::bytes);
  c.reuse_same_stream = reuse(pool.at("reuse_same_stream"));
  c.reuse_other_stream = reuse(pool.at("reuse_other_stream"));
  In rel = pool.at("released_to_os_by");
  std::vector<std::string> rels = str_list(rel);
  static const char* known[] = {"nothing",     "stream_query",
                                "event_query", "event_sync",
                                "stream_sync", "stream_sync_other_stream",
                                "device_sync", "mem_get_info",
                                "cuda_malloc", "malloc_async_other_stream",
                                "cuda_free",   "host_unregister",
                                "free_host"};
  for (std::size_t i = 0; i < rels.size(); ++i) {
    bool ok = false;
    for (const char* k : known) ok = ok || rels[i] == k;
    if (!ok)
      rel.at("value").item(i).fail(
          "unknown call (expected: nothing, stream_query, event_query, event_sync, stream_sync, "
          "stream_sync_other_stream, device_sync, mem_get_info, cuda_malloc, "
          "malloc_async_other_stream, cuda_free, host_unregister, free_host)");
    c.released_by.insert(rels[i]);
  }
  c.cudamalloc_reclaims_idle_pool = flag(pool.at("cudamalloc_reclaims_idle_pool"));
  c.meminfo_counts_pool_reserved = flag(pool.at("meminfo_counts_pool_reserved_as_used"));
  c.pool_trim = cost(pool.at("trim"));
  std::string tp = typed_value(pool.at("trim_with_pending_frees"), "enum", [](const In& v) {
    return v.choice(
        {"skips_pending", "waits_then_releases", "waits_without_release", "releases_immediately"});
  });
  c.trim_with_pending_frees = tp == "waits_then_releases"     ? TrimPending::waits_then_releases
                              : tp == "waits_without_release" ? TrimPending::waits_without_release
                              : tp == "releases_immediately"  ? TrimPending::releases_immediately
                                                              : TrimPending::skips_pending;
  c.oom_sticky = flag(dm.at("oom_sticky"));

  In sy = root.at("synchronization");
  sy.expect_map({"device_synchronize_waits_all_streams", "stream_synchronize", "event_record_sync",
                 "device_synchronize", "calls_that_synchronize_device",
                 "calls_that_do_not_synchronize_device"});
  if (sy.has("calls_that_do_not_synchronize_device"))
    str_list(sy.at("calls_that_do_not_synchronize_device"));  // validated; the complement is used
  if (sy.has("device_synchronize")) c.device_synchronize = cost(sy.at("device_synchronize"));
  c.device_sync_waits_all = flag(sy.at("device_synchronize_waits_all_streams"));
  c.stream_synchronize = cost(sy.at("stream_synchronize"));
  c.event_record_sync = cost(sy.at("event_record_sync"));
  for (auto& s : str_list(sy.at("calls_that_synchronize_device")))
    c.calls_that_synchronize_device.insert(s);

  if (root.has("kernels")) {
    In k = root.at("kernels");
    for (const auto& name : k.keys()) c.kernels[name] = kernel_curve(k.at(name));
  }
  if (root.has("msm_workspace")) {
    In m = root.at("msm_workspace");
    m.expect_map({"g1", "g2"});
    for (const auto& name : m.keys())
      c.msm_workspace[name] = curve(m.at(name), "log2_n", Dim::bytes, false);
  }
  return c;
}

Calibration load_calibration(const std::string& path) {
  return parse_calibration(In(yaml::load_file(path), path, ""));
}

}  // namespace prestage::model
