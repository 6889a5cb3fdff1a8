#include "model/validation.hpp"

#include "model/stats.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace prestage::model {
namespace {

constexpr double kGranule = 2.0 * 1024 * 1024;  // B, the allocation granule of peak memory

double median_of(const std::vector<double>& v) {
  return v.empty() ? 0.0 : median(v);
}

double num(const nlohmann::json& j, std::initializer_list<const char*> path, double dflt = 0) {
  const nlohmann::json* p = &j;
  for (const char* k : path) {
    if (!p->is_object() || !p->contains(k)) return dflt;
    p = &(*p)[k];
  }
  return p->is_number() ? p->get<double>() : dflt;
}

double gpu_max(const nlohmann::json& s, const char* key) {
  double v = 0;
  if (s.contains("gpus"))
    for (const auto& g : s["gpus"]) v = std::max(v, g.value(key, 0.0));
  return v;
}

double worker_sum(const nlohmann::json& s, const char* key) {
  double v = 0;
  if (s.contains("workers"))
    for (const auto& w : s["workers"]) v += w.value(key, 0.0);
  return v;
}

double per_hour(const nlohmann::json& s, double count) {
  double t = num(s, {"makespan_s"});
  return t > 0 ? count / t * 3600.0 : 0;
}

}  // namespace

bool ScenarioValidation::pass() const {
  return failed_goals() == 0;
}
int ScenarioValidation::failed_goals() const {
  int k = 0;
  for (const auto& f : figures) k += !f.pass;
  return k;
}

ScenarioValidation validate_scenario(const std::string& scenario, const std::string& kernels,
                                     const std::vector<nlohmann::json>& measured,
                                     const nlohmann::json& simulated) {
  ScenarioValidation v;
  v.scenario = scenario;
  v.kernels = kernels;
  v.runs = static_cast<int>(measured.size());
  auto add = [&](const std::string& name, const std::string& unit, const std::string& goal,
                 auto&& get) {
    ValidationFigure f;
    f.name = name;
    f.unit = unit;
    f.goal = goal;
    for (const auto& m : measured) f.measured.push_back(get(m));
    f.model = get(simulated);
    f.has_model = true;
    if (!f.measured.empty()) {
      f.median = median_of(f.measured);
      f.min = *std::min_element(f.measured.begin(), f.measured.end());
      f.max = *std::max_element(f.measured.begin(), f.measured.end());
    }
    f.rel_error = f.median != 0 ? (f.model - f.median) / f.median : (f.model == 0 ? 0 : INFINITY);
    if (goal == "range_or_5pct")
      f.pass = (f.model >= f.min && f.model <= f.max) || std::abs(f.rel_error) <= 0.05;
    else if (goal == "same_verdict")
      f.pass = std::all_of(f.measured.begin(), f.measured.end(),
                           [&](double x) { return (x > 0) == (f.model > 0); });
    else if (goal == "granule")
      f.pass = std::abs(f.model - f.median) <= kGranule;
    else if (goal == "3pct")
      f.pass = std::abs(f.rel_error) <= 0.03;
    v.figures.push_back(f);
  };
  add("makespan", "s", "range_or_5pct",
      [](const nlohmann::json& s) { return num(s, {"makespan_s"}); });
  add("throughput", "proofs/h", "range_or_5pct",
      [](const nlohmann::json& s) { return num(s, {"throughput_proofs_per_hour"}); });
  add("partitions done per hour", "partitions/h", "range_or_5pct", [](const nlohmann::json& s) {
    return per_hour(s, num(s, {"partitions", "done"}));
  });
  add("any OOM (events)", "count", "same_verdict", [](const nlohmann::json& s) {
    return s.contains("oom_events") ? static_cast<double>(s["oom_events"].size()) : 0.0;
  });
  add("any partition lost", "count", "same_verdict", [](const nlohmann::json& s) {
    return num(s, {"partitions", "lost"});
  });
  add("partitions retried", "count", "", [](const nlohmann::json& s) {
    return num(s, {"partitions", "retried"});
  });
  add("peak device memory used", "B", "granule",
      [](const nlohmann::json& s) { return gpu_max(s, "peak_device_memory_used_B"); });
  add("peak device memory reserved", "B", "",
      [](const nlohmann::json& s) { return gpu_max(s, "peak_device_memory_reserved_B"); });
  add("device-wide waits (all workers)", "s", "",
      [](const nlohmann::json& s) { return worker_sum(s, "device_wide_wait_s"); });
  add("lock waits (all workers)", "s", "",
      [](const nlohmann::json& s) { return worker_sum(s, "lock_wait_s"); });
  add("GPU busy share", "", "", [](const nlohmann::json& s) {
    return s.contains("gpus") && !s["gpus"].empty() ? s["gpus"][0].value("busy_share", 0.0) : 0.0;
  });
  // The pinned pool's allocation before the run (pinning: pinned_pool), when the model has one.
  if (simulated.contains("pinned_pool"))
    add("pinned pool cudaMallocHost, before the run", "s", "", [](const nlohmann::json& s) {
      return num(s, {"pinned_pool", "cudaMallocHost_s"});
    });
  // Per-step means: every phase either side has.
  std::set<std::string> phases;
  for (const auto& m : measured)
    if (m.contains("phases"))
      for (const auto& [k, _] : m["phases"].items()) phases.insert(k);
  if (simulated.contains("phases"))
    for (const auto& [k, _] : simulated["phases"].items()) phases.insert(k);
  for (const auto& p : phases) {
    const bool transfer = p.rfind("upload_", 0) == 0 || p.rfind("download_", 0) == 0;
    add("step " + p + " (mean)", "s", transfer ? "3pct" : "", [&](const nlohmann::json& s) {
      return num(s, {"phases", p.c_str(), "mean_s"});
    });
  }
  return v;
}

bool TimingCheck::dependent() const {
  for (std::size_t i = 1; i < labels.size(); ++i)
    if ((ooms[i] > 0) != (ooms[0] > 0) || (lost[i] > 0) != (lost[0] > 0) || done[i] != done[0])
      return true;
  return false;
}

TimingCheck timing_check(const std::vector<std::string>& labels,
                         const std::vector<nlohmann::json>& summaries) {
  TimingCheck t;
  t.labels = labels;
  for (const auto& s : summaries) {
    t.makespan.push_back(num(s, {"makespan_s"}));
    t.done.push_back(num(s, {"partitions", "done"}));
    t.lost.push_back(num(s, {"partitions", "lost"}));
    t.ooms.push_back(s.contains("oom_events") ? static_cast<double>(s["oom_events"].size()) : 0.0);
  }
  return t;
}

static std::string timing_line(const char* who, const TimingCheck& t,
                               const char* dependent = "timing-dependent") {
  if (t.empty()) return "";
  auto range = [](const std::vector<double>& v, const char* f) {
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    return *lo == *hi
               ? fmt::format(fmt::runtime(f), *lo)
               : fmt::format(fmt::runtime(f), *lo) + " .. " + fmt::format(fmt::runtime(f), *hi);
  };
  std::string labels;
  for (const auto& l : t.labels) labels += (labels.empty() ? "" : "; ") + l;
  return fmt::format(
      "- {} ({}): makespan {} s, partitions done {}, OOM events {}, partitions lost {}: **{}**\n",
      who, labels, range(t.makespan, "{:.2f}"), range(t.done, "{:.0f}"), range(t.ooms, "{:.0f}"),
      range(t.lost, "{:.0f}"),
      t.dependent() ? fmt::format("{} (a verdict differs between these runs)", dependent)
                    : std::string("the same verdicts in every run"));
}

static std::string fmt_value(double x, const std::string& unit) {
  if (unit == "B") return fmt::format("{:.3f} GiB", x / (1024.0 * 1024 * 1024));
  if (unit == "count") return fmt::format("{:.0f}", x);
  if (std::abs(x) >= 100) return fmt::format("{:.1f}", x);
  return fmt::format("{:.4g}", x);
}

static std::string section(const std::vector<const ScenarioValidation*>& v, const char* title) {
  std::string s;
  std::vector<double> errs;
  int failed = 0;
  for (const auto* svp : v) {
    const auto& sv = *svp;
    s += fmt::format("### {} (GPU kernels: {}, {} measured run{})\n\n", sv.scenario, sv.kernels,
                     sv.runs, sv.runs == 1 ? "" : "s");
    s += "| figure | measured median | measured range | model | error | goal | verdict |\n";
    s += "|---|---|---|---|---|---|---|\n";
    for (const auto& f : sv.figures) {
      std::string err = std::isfinite(f.rel_error) ? fmt::format("{:+.1f}%", 100 * f.rel_error)
                                                   : std::string("(median 0)");
      s += fmt::format(
          "| {} | {} | {} .. {} | {} | {} | {} | {} |\n", f.name, fmt_value(f.median, f.unit),
          fmt_value(f.min, f.unit), fmt_value(f.max, f.unit), fmt_value(f.model, f.unit), err,
          f.goal.empty() ? "-" : f.goal, f.goal.empty() ? "-" : (f.pass ? "ok" : "MISSED"));
      if (f.name == "makespan" && std::isfinite(f.rel_error)) errs.push_back(std::abs(f.rel_error));
    }
    failed += !sv.pass();
    if (!sv.model_timing.empty() || !sv.measured_timing.empty() || !sv.model_costs.empty())
      s += "\nTiming:\n\n" + timing_line("model", sv.model_timing) +
           timing_line("model, allocator costs", sv.model_costs, "cost-dependent") +
           timing_line("measured repeats", sv.measured_timing);
    s += fmt::format("\n**Verdict {} ({}): {}** ({} goal{} missed)\n\n", sv.scenario, sv.kernels,
                     sv.pass() ? "model within its goals" : "model misses goals", sv.failed_goals(),
                     sv.failed_goals() == 1 ? "" : "s");
  }
  s += fmt::format(
      "**{}: {} scenario run set{}, {} within every goal; median |makespan error| {:.1f}% (goal "
      "<= 2%).**\n\n",
      title, v.size(), v.size() == 1 ? "" : "s", v.size() - static_cast<std::size_t>(failed),
      100 * median_of(errs));
  return s;
}

std::string validation_markdown(const std::vector<ScenarioValidation>& v) {
  std::string s = "# Validation: the model against measured runs\n\n";
  s += "Goals: makespan and throughput inside the measured range or within 5% of the median; OOM "
       "and loss verdicts the same on both sides; peak used device memory within one 2 MiB "
       "granule; per-transfer times within 3%. Figures without a goal are reported.\n\n";
  std::vector<const ScenarioValidation*> dev, held;
  for (const auto& sv : v) (sv.held_back ? held : dev).push_back(&sv);
  s += "## Development part\n\n" + section(dev, "Development part");
  if (!held.empty()) s += "## Held-back part\n\n" + section(held, "Held-back part");
  return s;
}

static nlohmann::json timing_json(const TimingCheck& t) {
  if (t.empty()) return nullptr;
  return {{"labels", t.labels},   {"makespan_s", t.makespan},  {"partitions_done", t.done},
          {"oom_events", t.ooms}, {"partitions_lost", t.lost}, {"timing_dependent", t.dependent()}};
}

nlohmann::json validation_json(const std::vector<ScenarioValidation>& v) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& sv : v) {
    nlohmann::json figs = nlohmann::json::array();
    for (const auto& f : sv.figures)
      figs.push_back({{"name", f.name},
                      {"unit", f.unit},
                      {"measured", f.measured},
                      {"median", f.median},
                      {"min", f.min},
                      {"max", f.max},
                      {"model", f.model},
                      {"rel_error", std::isfinite(f.rel_error) ? nlohmann::json(f.rel_error)
                                                               : nlohmann::json(nullptr)},
                      {"goal", f.goal},
                      {"pass", f.pass}});
    j.push_back({{"scenario", sv.scenario},
                 {"kernels", sv.kernels},
                 {"runs", sv.runs},
                 {"held_back", sv.held_back},
                 {"pass", sv.pass()},
                 {"failed_goals", sv.failed_goals()},
                 {"figures", figs},
                 {"timing",
                  {{"model", timing_json(sv.model_timing)},
                   {"model_allocator_costs", timing_json(sv.model_costs)},
                   {"measured", timing_json(sv.measured_timing)}}}});
  }
  return j;
}

}  // namespace prestage::model
