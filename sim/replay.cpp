#include "sim/replay.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "model/errors.hpp"
#include "model/run_output.hpp"
#include "model/stats.hpp"
#include "model/trace_compare.hpp"
#include "sim/runner.hpp"

namespace prestage::sim {
namespace {
namespace fs = std::filesystem;
using model::EventKind;
using nlohmann::json;

json read_run_json(const fs::path& p) {
  std::ifstream in(p);
  if (!in) throw InputError(p.string(), 0, "", "cannot read (a recorded run needs it)");
  try {
    return json::parse(in);
  } catch (const json::exception& e) {
    throw InputError(p.string(), 0, "", std::string("not JSON: ") + e.what());
  }
}

// The events replay times, by name: durations (s) of kernels and copies on the GPU's own tracks,
// and of the allocator and pinning calls; cpu steps other than synthesis.
std::map<std::string, std::vector<double>> timed_events(const model::Trace& t) {
  std::map<std::string, std::vector<double>> out;
  for (const auto& e : t.events()) {
    const std::string& name = t.event_name(e.name);
    bool take = false;
    switch (e.kind) {
      case EventKind::compute:
      case EventKind::copy:
        take = model::is_device_track(t.track_name(e.track));
        break;
      case EventKind::alloc:
      case EventKind::free:
      case EventKind::pin:
      case EventKind::unpin:
        take = true;
        break;
      case EventKind::cpu:
        take = name != "synthesis";
        break;
      default:
        break;
    }
    if (take) out[name].push_back(e.t_end - e.t_start);
  }
  return out;
}

}  // namespace

Replay measure_replay(const std::vector<std::string>& run_dirs, const model::Overrides& overrides) {
  if (run_dirs.empty()) throw InputError("", 0, "replay", "no recorded runs to replay");
  Replay r;
  std::map<std::string, std::vector<double>> factors, measured, modelled, measured_med,
      modelled_med;
  for (const auto& dir : run_dirs) {
    const fs::path d(dir);
    const fs::path mf = d / "manifest.json";
    json m = read_run_json(mf);
    if (m.value("tool", "") != "prestage run --gpu")
      throw InputError(mf.string(), 0, "tool",
                       "not a measured run (tool is \"" + m.value("tool", "") +
                           "\", replay needs one of `prestage run --gpu`)");
    if (!m.contains("scenario") || !m["scenario"].is_object() || !m["scenario"].contains("file"))
      throw InputError(mf.string(), 0, "scenario.file", "missing");
    const std::string file = m["scenario"].value("file", "");
    if (!fs::exists(file))
      throw InputError(mf.string(), 0, "scenario.file",
                       "'" + file +
                           "' does not exist (paths are relative to the current directory: run "
                           "from the repository root)");
    if (model::same_file_as_recorded(m["scenario"], file) == false)
      r.notes.push_back(fmt::format("{}: the scenario file {} changed since the run", dir, file));
    model::Scenario s = model::load_scenario(file, overrides);
    const json summary = read_run_json(d / "summary.json");
    s.proofs = summary.value("proofs_requested", s.proofs);
    const model::Trace rec = model::read_jsonl((d / "events.jsonl").string());
    const model::Trace sim = run_scenario(s, true).trace;
    const auto meas = timed_events(rec);
    const auto mod = timed_events(sim);
    for (const auto& [name, ds] : meas) {
      auto it = mod.find(name);
      if (it == mod.end()) continue;
      // The fastest occurrence is the step's own cost; a slower one waited for something the
      // model decides itself (the SMs, the link, the driver), which replay must not fold in.
      const double a = *std::min_element(ds.begin(), ds.end());
      const double b = *std::min_element(it->second.begin(), it->second.end());
      if (!(a > 0) || !(b > 0)) continue;  // instantaneous in one log: nothing to scale
      factors[name].push_back(a / b);
      measured[name].push_back(a);
      modelled[name].push_back(b);
      measured_med[name].push_back(model::median(ds));
      modelled_med[name].push_back(model::median(it->second));
      r.steps[name].events += static_cast<std::int64_t>(ds.size());
    }
    r.runs.push_back(dir);
    r.scenarios.push_back(s.name);
  }
  for (auto& [name, f] : r.steps) {
    f.factor = model::median(factors[name]);
    f.measured_min_s = model::median(measured[name]);
    f.modelled_min_s = model::median(modelled[name]);
    f.measured_median_s = model::median(measured_med[name]);
    f.modelled_median_s = model::median(modelled_med[name]);
    f.runs = static_cast<int>(factors[name].size());
  }
  return r;
}

std::vector<std::string> apply_replay(model::Scenario& s, const Replay& r) {
  s.step_time_scale.clear();
  for (const auto& [name, f] : r.steps) s.step_time_scale[name] = f.factor;
  // A staged upload and the in-lock upload of the same input are the same copy (same bytes, same
  // link) on another stream: one that no recorded run has takes the other's factor.
  std::vector<std::string> borrowed;
  for (const auto& st : s.pipe.steps) {
    if (st.op != model::StepOp::upload || st.input < 0) continue;
    const std::string staged =
        "stage_upload_" + s.pipe.inputs[static_cast<std::size_t>(st.input)].name;
    const bool has_staged = r.steps.count(staged) != 0, has_step = r.steps.count(st.name) != 0;
    if (has_step && !has_staged) {
      s.step_time_scale[staged] = r.steps.at(st.name).factor;
      borrowed.push_back(staged + " from " + st.name);
    } else if (has_staged && !has_step) {
      s.step_time_scale[st.name] = r.steps.at(staged).factor;
      borrowed.push_back(st.name + " from " + staged);
    }
  }
  // The scenario's timed events (those the model gives a duration of its own).
  std::set<std::string> timed;
  for (const auto& st : s.pipe.steps)
    if (st.op == model::StepOp::kernel || st.op == model::StepOp::cpu ||
        st.op == model::StepOp::upload || st.op == model::StepOp::download)
      timed.insert(st.name);
  for (const auto& b : s.pipe.buffers) {
    timed.insert("alloc_" + b.name);
    timed.insert("free_" + b.name);
  }
  for (const auto& g : s.pipe.groups)
    for (int in : g.uploads)
      timed.insert("stage_upload_" + s.pipe.inputs[static_cast<std::size_t>(in)].name);
  std::vector<std::string> missing;
  for (const auto& n : timed)
    if (!s.step_time_scale.count(n)) missing.push_back(n);
  std::string note = fmt::format(
      "replay: the modelled time of {} named events is scaled by the measured/modelled ratio of "
      "{} recorded run(s) (manifest.json `replay`)",
      r.steps.size(), r.runs.size());
  if (!borrowed.empty()) {
    note += "; the same copy on the other stream:";
    for (const auto& n : borrowed) note += " " + n;
  }
  if (!missing.empty()) {
    note += "; not in any recorded run, the model's time kept:";
    for (const auto& n : missing) note += " " + n;
  }
  s.notes.push_back(note);
  return missing;
}

nlohmann::json to_json(const Replay& r) {
  json steps = json::object();
  for (const auto& [name, f] : r.steps)
    steps[name] = {{"factor", f.factor},
                   {"measured_min_s", f.measured_min_s},
                   {"modelled_min_s", f.modelled_min_s},
                   {"measured_median_s", f.measured_median_s},
                   {"modelled_median_s", f.modelled_median_s},
                   {"runs", f.runs},
                   {"events", f.events}};
  return {{"runs", r.runs}, {"scenarios", r.scenarios}, {"steps", steps}, {"notes", r.notes}};
}

}  // namespace prestage::sim
