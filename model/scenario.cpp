#include "model/scenario.hpp"

#include <yaml-cpp/yaml.h>

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "model/default_pipeline.hpp"
#include "model/msm_split.hpp"
#include "model/yaml_input.hpp"

namespace prestage::model {
using yaml::In;
namespace fs = std::filesystem;

const char* default_pipeline_text() {
  return kDefaultPipelineYaml;
}

static std::vector<std::string> split(const std::string& s, char c) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : s) {
    if (ch == c) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  out.push_back(cur);
  return out;
}

YAML::Node lookup(const YAML::Node& root, const std::string& dotted) {
  YAML::Node n = YAML::Clone(root);
  for (const auto& k : split(dotted, '.')) {
    if (!n.IsMap() || !n[k]) return YAML::Node();
    n = n[k];
  }
  return n;
}

// Sets root[a][b]...[z] = value (a scalar parsed as YAML), creating maps on the way.
static void set_path(YAML::Node root, const std::string& dotted, const std::string& value,
                     const std::string& file) {
  auto parts = split(dotted, '.');
  YAML::Node n = root;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    if (parts[i].empty()) throw InputError(file, 0, dotted, "empty component in key");
    if (n[parts[i]] && !n[parts[i]].IsMap())
      throw InputError(file, 0, dotted, "'" + parts[i] + "' is not a map");
    n.reset(n[parts[i]]);
  }
  n[parts.back()] = yaml::load_string(value, "--vary " + dotted);
}

static std::string resolve(const std::string& base_file, const std::string& rel) {
  fs::path p(rel);
  if (p.is_absolute()) return rel;
  return (fs::path(base_file).parent_path() / p).lexically_normal().string();
}

namespace {
// Every MSM kernel step (kernel msm_*, as the simulator's step_is_msm_) reads key points.
bool streams_key_points(const Scenario& s, const model::Step& st) {
  return s.key_points == KeyPoints::streamed && st.op == model::StepOp::kernel &&
         st.kernel.starts_with("msm_");
}

// B one key point of the step's MSM takes (the curve's affine layout on host and device).
double key_point_bytes(const model::Step& st) {
  return st.kernel.starts_with("msm_g2") ? kG2KeyPointBytes : kKeyPointBytes;
}

// B of the pipeline's largest pool buffer: an MSM step's whole workspace (both drivers).
double msm_workspace_bytes(const Scenario& s) {
  double workspace = 0;
  for (std::size_t b = 0; b < s.pipe.buffers.size(); ++b)
    if (s.pipe.buffers[b].allocator == model::Allocator::pool)
      workspace = std::max(workspace, s.buffer_bytes[b]);
  return workspace;
}

// The calibration's msm_workspace curve of a kernel step's MSM (g2 for msm_g2*, else g1), or none
// (not an MSM kernel step, or a calibration without the section).
const model::Curve* msm_need_curve(const Scenario& s, const model::Step& st) {
  if (st.op != model::StepOp::kernel || !st.kernel.starts_with("msm_")) return nullptr;
  const auto it = s.cal.msm_workspace.find(st.kernel.starts_with("msm_g2") ? "g2" : "g1");
  return it == s.cal.msm_workspace.end() ? nullptr : &it->second;
}
// B one MSM call of `points` points takes at least (the curve's value, rounded up).
std::uint64_t msm_need(const model::Curve& need, std::size_t points) {
  return points == 0 ? 0
                     : static_cast<std::uint64_t>(std::ceil(need.at(static_cast<double>(points))));
}

// The streamed MSM's chunk count for a kernel step of `size` points in `workspace` B
// (Scenario::step_stream_chunks): 1 where the calibration has no msm_workspace or the step
// streams no points; 0 when no chunk fits.
int streamed_msm_chunks(const Scenario& s, const model::Step& st, double size, double workspace) {
  const model::Curve* need = msm_need_curve(s, st);
  if (need == nullptr || !streams_key_points(s, st)) return 1;
  const auto n = static_cast<std::size_t>(std::llround(size));
  // gpu/staging/runtime.cpp streamed_chunk: the chunk's two point buffers, its MSM's workspace
  // under the cap that leaves (the least-memory variant where nothing larger fits) and the
  // arena's 4 KiB of alignment slack.
  for (std::size_t c = n; c >= 1024; c /= 2)
    if (static_cast<double>(msm_need(*need, c)) +
            2.0 * static_cast<double>(c) * key_point_bytes(st) + 4096 <=
        workspace)
      return static_cast<int>((n + c - 1) / c);
  return 0;
}

// How a kernel step's MSM of `size` points fits `workspace` B with its key points resident
// (Scenario::step_msm_pieces): the GPU runtime's split (run_msm) on the calibration's measured
// need. One piece, need 0, where nothing is tested.
model::MsmSplit resident_msm_split(const Scenario& s, const model::Step& st, double size,
                                   double workspace) {
  const model::Curve* need = msm_need_curve(s, st);
  if (need == nullptr || s.key_points != KeyPoints::resident || workspace <= 0)
    return model::MsmSplit{1, static_cast<std::size_t>(size), 0};
  return model::split_to_fit(static_cast<std::size_t>(std::llround(size)),
                             static_cast<std::uint64_t>(workspace), model::kMaxResidentMsmPieces,
                             [&](std::size_t points) { return msm_need(*need, points); });
}

double kernel_time(const Scenario& s, const model::Step& st, double size) {
  if (st.seconds >= 0) return st.seconds * st.count;
  // Streamed key points: the curve measured with the points streamed, where there is one and
  // only at sizes within its measured points: its shape follows the chunk the workspace allows
  // (the probe's 40.5 B a point: 2^19 points at 2^24, 2^24 at 2^27), so it does not extrapolate.
  // Elsewhere the resident curve, with the points' transfer beside it (step_stream_bytes).
  // A curve measured in the pipeline's own workspace comes first (<kernel>_streamed_ws<B a
  // point>, the probe's at_n24_pipeline: the 2^24 pipeline's 68 B a point allows twice the chunk).
  const auto measured_at = [&](const std::string& name) -> const model::Curve* {
    auto it = s.cal.kernels.find(name);
    if (it == s.cal.kernels.end() || it->second.empty() ||
        std::log2(size) < it->second.pts.front().first - 1e-9 ||
        std::log2(size) > it->second.pts.back().first + 1e-9)
      return nullptr;
    return &it->second;
  };
  const double workspace = msm_workspace_bytes(s);  // B: an MSM works in it
  const auto per_point = std::lround(workspace / size);
  if (streams_key_points(s, st)) {
    if (const auto* c = measured_at(fmt::format("{}_streamed_ws{}", st.kernel, per_point)))
      return c->at(size) * st.count;
    if (const auto* c = measured_at(st.kernel + "_streamed")) return c->at(size) * st.count;
  } else if (st.kernel.starts_with("msm_") && workspace > 0) {
    // Resident points: the curve measured in the pipeline's workspace (<kernel>_ws<B a point>,
    // the probe's msm_streaming resident rows), where there is one and within its sizes; else
    // the kernel benchmark's curve, measured with the workspace the MSM chooses.
    if (const auto* c = measured_at(fmt::format("{}_ws{}", st.kernel, per_point)))
      return c->at(size) * st.count;
  }
  auto it = s.cal.kernels.find(st.kernel);
  if (it == s.cal.kernels.end())
    throw InputError(s.pipe.file, st.line, "steps." + st.name + ".kernel",
                     "step '" + st.name + "' needs kernel curve '" + st.kernel +
                         "', which the calibration " + s.calibration_file +
                         " lacks (add it, or give the step's time under phases)");
  return it->second.at(size) * st.count;
}
}  // namespace

// The keys build_scenario accepts, per section; its expect_map calls use these lists.
const std::vector<ScenarioSection>& scenario_sections() {
  static const std::vector<ScenarioSection> sections = {
      {"",
       {"schema", "name", "description", "calibration", "pipeline", "workload", "gpus", "host",
        "policy", "phases", "run"}},
      {"workload", {"log2_n", "partitions", "element_bytes", "proofs", "key_points"}},
      {"gpus", {"count", "vram", "workers_per_gpu"}},
      {"host", {"synthesis_workers", "synthesis_seconds", "host_slots", "cpu_workers"}},
      {"policy", {"name", "params"}},
      {"run", {"seed", "max_retries", "jitter", "worker_start_offset", "memory_samples"}},
  };
  return sections;
}

static const std::vector<std::string>& section_keys(const std::string& name) {
  for (const auto& s : scenario_sections())
    if (s.name == name) return s.keys;
  throw std::logic_error("scenario_sections: no section " + name);
}

Scenario load_scenario(const std::string& path, const Overrides& overrides, LoadCache* cache) {
  return build_scenario(yaml::load_file(path), path, overrides, cache);
}

Scenario build_scenario(const YAML::Node& original, const std::string& path,
                        const Overrides& overrides, LoadCache* cache) {
  if (!original.IsMap()) throw InputError(path, 1, "", "a scenario must be a YAML map");
  YAML::Node doc = overrides.empty() ? original : YAML::Clone(original);
  for (const auto& [k, v] : overrides) set_path(doc, k, v, path);
  In root(doc, path, "");
  Scenario s;
  s.file = path;
  root.expect_map(section_keys(""));
  if (root.at("schema").str() != "prestage-scenario/1")
    root.at("schema").fail("unsupported schema (expected prestage-scenario/1)");
  s.name = root.at("name").str();

  s.calibration_file = resolve(path, root.at("calibration").str());
  try {
    if (cache && cache->calibrations.count(s.calibration_file)) {
      s.cal = cache->calibrations.at(s.calibration_file);
    } else {
      s.cal = model::load_calibration(s.calibration_file);
      if (cache) cache->calibrations[s.calibration_file] = s.cal;
    }
  } catch (const InputError& e) {
    if (e.line() == 0 && e.key().empty() && !fs::exists(s.calibration_file))
      root.at("calibration").fail("calibration file not found: " + s.calibration_file);
    throw;
  }
  if (root.has("pipeline")) {
    s.pipeline_file = resolve(path, root.at("pipeline").str());
    if (!fs::exists(s.pipeline_file))
      root.at("pipeline").fail("pipeline file not found: " + s.pipeline_file);
  } else {
    s.pipeline_file = "<embedded>";
  }
  if (cache && cache->pipelines.count(s.pipeline_file)) {
    s.pipe = cache->pipelines.at(s.pipeline_file);
  } else {
    const char* emb = "<embedded pipeline>";
    s.pipe =
        s.pipeline_file == "<embedded>"
            ? model::parse_pipeline(In(yaml::load_string(default_pipeline_text(), emb), emb, ""))
            : model::load_pipeline(s.pipeline_file);
    if (cache) cache->pipelines[s.pipeline_file] = s.pipe;
  }

  In wl = root.at("workload");
  wl.expect_map(section_keys("workload"));
  auto int_in = [](const In& q, long lo, long hi) {
    auto v = q.integer();
    if (v < lo || v > hi)
      q.fail("expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return static_cast<int>(v);
  };
  if (wl.has("log2_n")) s.log2_n = int_in(wl.at("log2_n"), 1, 40);
  if (wl.has("partitions")) s.partitions = int_in(wl.at("partitions"), 1, 1000000);
  if (wl.has("element_bytes")) s.element_bytes = wl.at("element_bytes").positive();
  if (wl.has("proofs")) s.proofs = int_in(wl.at("proofs"), 1, 1000000);
  if (wl.has("key_points"))
    s.key_points = wl.at("key_points").choice({"streamed", "resident"}) == "resident"
                       ? KeyPoints::resident
                       : KeyPoints::streamed;

  In g = root.at("gpus");
  g.expect_map(section_keys("gpus"));
  if (g.has("count")) s.gpus = int_in(g.at("count"), 1, 64);
  s.vram = g.has("vram") ? static_cast<double>(g.at("vram").bytes()) : s.cal.total_memory;
  double overhead = s.cal.total_memory - s.cal.free_at_context_start;
  if (s.vram <= overhead)
    g.at("vram").fail("smaller than the context's own memory in the calibration");
  if (g.has("workers_per_gpu")) s.workers_per_gpu = int_in(g.at("workers_per_gpu"), 1, 64);

  In h = root.at("host");
  h.expect_map(section_keys("host"));
  if (h.has("synthesis_workers")) s.synthesis_workers = int_in(h.at("synthesis_workers"), 1, 1024);
  s.synthesis_seconds = h.at("synthesis_seconds").non_negative();
  if (h.has("host_slots")) s.host_slots = int_in(h.at("host_slots"), 1, 1024);
  if (h.has("cpu_workers")) s.cpu_workers = int_in(h.at("cpu_workers"), 1, 1024);

  In pol = root.at("policy");
  pol.expect_map(section_keys("policy"));
  s.policy = pol.at("name").str();
  if (!model::find_policy(s.policy)) {
    std::string list;
    for (const auto& n : model::policy_names()) list += (list.empty() ? "" : ", ") + n;
    pol.at("name").fail("unknown policy '" + s.policy + "' (registered: " + list + ")");
  }
  // Only what the chosen policy declares (model/policies/NAME.cpp), defaults filled in.
  s.params = model::parse_policy_params(
      s.policy,
      pol.has("params") ? pol.at("params") : In(YAML::Node(), path, "policy.params", pol.line()));

  if (root.has("run")) {
    In r = root.at("run");
    r.expect_map(section_keys("run"));
    if (r.has("seed")) {
      auto v = r.at("seed").integer();
      if (v < 0) r.at("seed").fail("expected >= 0");
      s.seed = static_cast<std::uint64_t>(v);
    }
    if (r.has("max_retries")) s.max_retries = int_in(r.at("max_retries"), 0, 100);
    if (r.has("jitter")) {
      s.jitter = r.at("jitter").non_negative();
      if (s.jitter >= 1) r.at("jitter").fail("expected < 1");
    }
    if (r.has("worker_start_offset")) {
      s.worker_start_offset = r.at("worker_start_offset").num();
      if (std::abs(s.worker_start_offset) > 3600)
        r.at("worker_start_offset").fail("expected seconds between -3600 and 3600");
    }
    if (r.has("memory_samples"))
      s.memory_samples = r.at("memory_samples").choice({"driver", "pool"}) == "pool"
                             ? MemorySamples::pool
                             : MemorySamples::driver;
  }

  // Bind the pipeline.
  double n = std::exp2(s.log2_n);
  s.lot_of_memory = 3 * n * s.element_bytes <= s.vram - model::kGiB;
  std::map<std::string, double> vars = {{"n", n},
                                        {"elem", s.element_bytes},
                                        {"lot_of_memory", s.lot_of_memory ? 1.0 : 0.0},
                                        {"partitions", static_cast<double>(s.partitions)}};
  auto eval = [&](const model::SizeExpr& e, const std::string& what) {
    double v = 0;
    try {
      v = e.eval(vars);
    } catch (const std::invalid_argument& ex) {
      throw InputError(s.pipe.file, 0, what, ex.what());
    }
    if (!(v >= 0) || !std::isfinite(v))
      throw InputError(s.pipe.file, 0, what, "size evaluates to " + std::to_string(v));
    return std::round(v);
  };
  for (const auto& in : s.pipe.inputs) s.input_bytes.push_back(eval(in.bytes, "inputs." + in.name));
  for (const auto& b : s.pipe.buffers) s.buffer_bytes.push_back(eval(b.bytes, "buffers." + b.name));
  for (const auto& r : s.pipe.resident) s.resident_bytes += eval(r.bytes, "resident." + r.name);
  if (s.key_points == KeyPoints::resident) {
    const double n = std::exp2(s.log2_n);
    s.resident_bytes += n * kKeyPointBytes;
    for (const auto& st : s.pipe.steps)
      if (st.op == model::StepOp::kernel && st.kernel.starts_with("msm_g2")) {
        s.resident_bytes += n * kG2KeyPointBytes;
        break;
      }
  }
  // A buffer larger than what the card leaves beside its context can never be allocated, nor can
  // the buffers one partition holds at once at its peak: every partition would fail. Infeasible,
  // so refused here rather than simulated into out-of-memory.
  const double usable = s.vram - overhead - s.resident_bytes;
  auto gib = [](double v) { return fmt::format("{:.2f} GiB ({:.0f} B)", v / model::kGiB, v); };
  const std::string pipe_name =
      s.pipeline_file == "<embedded>" ? "<embedded supraseal_c2>" : s.pipeline_file;
  // Throws the InfeasibleError, blaming the key a --set/--vary changed, if one did (so the
  // message names that value), else the card's size where the scenario gives it, else the
  // problem size.
  auto infeasible = [&](const std::string& what) {
    std::string size_key;  // the workload key an override changed ("log2_n", "element_bytes")
    bool vram_overridden = false;
    for (const auto& [k, v] : overrides) {
      vram_overridden = vram_overridden || k == "gpus" || k == "gpus.vram";
      if (k == "workload" || k == "workload.log2_n") size_key = "log2_n";
      if (k == "workload.element_bytes" && size_key.empty()) size_key = "element_bytes";
    }
    try {
      if (g.has("vram") && (vram_overridden || size_key.empty())) g.at("vram").fail(what);
      if (!size_key.empty() && wl.has(size_key.c_str())) wl.at(size_key).fail(what);
      if (wl.has("log2_n")) wl.at("log2_n").fail(what);
      wl.fail(what);
    } catch (const InputError& e) {
      throw InfeasibleError(e);  // the same message, marked: a sweep runs the other points
    }
  };
  const std::string card = fmt::format(
      "{} of VRAM ({}) minus the calibration's context overhead {} ({}){} leaves {}", gib(s.vram),
      g.has("vram") ? "gpus.vram" : "the calibration's total memory", gib(overhead),
      s.calibration_file,
      s.resident_bytes > 0
          ? fmt::format(" and the prover's resident memory {} (the pipeline's `resident`{})",
                        gib(s.resident_bytes),
                        s.key_points == KeyPoints::resident ? " and the resident key points" : "")
          : "",
      gib(usable));
  if (usable <= 0)
    infeasible("infeasible, not simulated: nothing is left for the pipeline's buffers: " + card);
  for (std::size_t b = 0; b < s.pipe.buffers.size(); ++b) {
    if (s.buffer_bytes[b] <= usable) continue;
    const auto& spec = s.pipe.buffers[b];
    infeasible(fmt::format(
        "infeasible, not simulated: buffer '{}' of pipeline {} ({} = {} at workload.log2_n = {}, "
        "element_bytes = {}) is larger than the card: {}",
        spec.name, pipe_name, spec.bytes.text(), gib(s.buffer_bytes[b]), s.log2_n, s.element_bytes,
        card));
  }
  {
    // One partition's peak: the buffers live at once along its steps (alloc adds, free removes),
    // at their requested sizes (the allocators' rounding only adds to it).
    std::vector<bool> live(s.pipe.buffers.size(), false);
    double held = 0, peak = 0;
    std::size_t peak_step = 0;
    std::vector<std::string> peak_names;
    for (std::size_t i = 0; i < s.pipe.steps.size(); ++i) {
      const model::Step& st = s.pipe.steps[i];
      if (st.buffer < 0) continue;
      const auto b = static_cast<std::size_t>(st.buffer);
      if (st.op == model::StepOp::alloc && !live[b]) {
        live[b] = true;
        held += s.buffer_bytes[b];
        if (held > peak) {
          peak = held;
          peak_step = i;
          peak_names.clear();
          for (std::size_t k = 0; k < live.size(); ++k)
            if (live[k]) peak_names.push_back(s.pipe.buffers[k].name);
        }
      } else if (st.op == model::StepOp::free && live[b]) {
        live[b] = false;
        held -= s.buffer_bytes[b];
      }
    }
    if (peak > usable) {
      std::string names;
      for (const auto& n : peak_names) names += (names.empty() ? "" : ", ") + n;
      infeasible(fmt::format(
          "infeasible, not simulated: one partition holds {} at once at step '{}' (line {}) of "
          "pipeline {} (buffers {} at workload.log2_n = {}, element_bytes = {}), more than the "
          "card: {}",
          gib(peak), s.pipe.steps[peak_step].name, s.pipe.steps[peak_step].line, pipe_name, names,
          s.log2_n, s.element_bytes, card));
    }
  }
  s.buffer_group.assign(s.pipe.buffers.size(), -1);
  for (std::size_t gi = 0; gi < s.pipe.groups.size(); ++gi)
    s.buffer_group[static_cast<std::size_t>(s.pipe.groups[gi].buffer)] = static_cast<int>(gi);

  std::map<std::string, double> phase_seconds;
  if (root.has("phases")) {
    In ph = root.at("phases");
    for (const auto& k : ph.keys()) {
      bool known = false;
      for (const auto& st : s.pipe.steps)
        known = known ||
                ((st.op == model::StepOp::kernel || st.op == model::StepOp::cpu) && st.name == k);
      if (!known) ph.at(k).fail("no kernel or cpu step named '" + k + "' in the pipeline");
      phase_seconds[k] = ph.at(k).non_negative();
    }
  }
  std::uint64_t sync_now = 0, pool_now = 0;
  // Kernel and cpu steps whose time `phases:` fixes though the pipeline names a curve for them:
  // those with the curve in the calibration (overridden) and those without (filled in). Their
  // times stay whatever workload.log2_n is; the others follow the curves.
  std::vector<std::string> overridden, filled, following;
  const double workspace = msm_workspace_bytes(s);  // B: every MSM step's (both drivers)
  for (const auto& st : s.pipe.steps) {
    double v = 0;
    int pieces = 1, chunks = 1;
    double need = 0;  // B
    s.step_stream_bytes.push_back(streams_key_points(s, st)
                                      ? eval(st.size, "steps." + st.name + ".size") *
                                            key_point_bytes(st) * st.count
                                      : 0.0);
    if (st.op == model::StepOp::kernel || st.op == model::StepOp::cpu) {
      auto it = phase_seconds.find(st.name);
      if (it != phase_seconds.end() && !st.kernel.empty())
        (s.cal.kernels.count(st.kernel) ? overridden : filled)
            .push_back(fmt::format("{} ({} s{})", st.name, it->second,
                                   s.cal.kernels.count(st.kernel)
                                       ? ", not the calibration's curve " + st.kernel
                                       : ", no curve " + st.kernel + " in the calibration"));
      else if (it == phase_seconds.end() && st.seconds < 0)
        following.push_back(st.name);
      // The step's size is evaluated where its time or its MSM's fit needs it.
      const bool fixed = it != phase_seconds.end();
      const double size = fixed && msm_need_curve(s, st) == nullptr
                              ? 0
                              : eval(st.size, "steps." + st.name + ".size");
      const model::MsmSplit split = resident_msm_split(s, st, size, workspace);
      pieces = static_cast<int>(split.pieces);
      chunks = streamed_msm_chunks(s, st, size, workspace);
      need = chunks == 0 ? workspace : static_cast<double>(split.need);
      // A split MSM: its pieces one after another in the same workspace, each of the piece's
      // size (the runtime adds their sums on the host, a few point additions).
      v = fixed ? it->second * st.count
          : pieces > 1
              ? static_cast<double>(pieces) * kernel_time(s, st, static_cast<double>(split.piece))
              : kernel_time(s, st, size);
      const auto note = [&](const char* mode, const std::string& what) {
        s.notes.push_back(fmt::format(
            "step {} (line {}): its {} MSM of 2^{:.4g} points {} (the pipeline's largest pool "
            "buffer: {} B; calibration msm_workspace)",
            st.name, st.line, mode, std::log2(size), what, static_cast<std::uint64_t>(workspace)));
      };
      if (pieces > 1)
        note("resident", fmt::format("needs more workspace than it has; it runs in {} pieces of {} "
                                     "points ({} B a piece), as the GPU runtime splits it",
                                     pieces, split.piece, split.need));
      if (pieces == 0)
        note("resident", fmt::format("does not fit even in {} pieces ({} B): every partition's "
                                     "attempt fails there with an out-of-memory (msm_workspace)",
                                     model::kMaxResidentMsmPieces, split.need));
      if (chunks == 0)
        note("streamed",
             "finds no chunk of 1024 points or more whose two point buffers and "
             "workspace fit: every partition's attempt fails there with an "
             "out-of-memory (msm_workspace)");
    } else if (st.op == model::StepOp::download) {
      v = eval(st.size, "steps." + st.name + ".bytes");
    } else if (st.op == model::StepOp::alloc || st.op == model::StepOp::free) {
      auto bytes = static_cast<std::uint64_t>(s.buffer_bytes[static_cast<std::size_t>(st.buffer)]);
      bool pool =
          s.pipe.buffers[static_cast<std::size_t>(st.buffer)].allocator == model::Allocator::pool;
      std::uint64_t& cur = pool ? pool_now : sync_now;
      cur = st.op == model::StepOp::alloc ? cur + bytes : cur - bytes;
      s.locked_sync_peak = std::max(s.locked_sync_peak, sync_now);
      s.pool_peak = std::max(s.pool_peak, pool_now);
    }
    s.step_seconds.push_back(v);
    s.step_msm_pieces.push_back(pieces);
    s.step_msm_need.push_back(need);
    s.step_stream_chunks.push_back(chunks);
  }
  // Only when `phases:` overrides a curve the calibration has: then workload.log2_n no longer
  // moves those steps, which a sweep over log2_n would otherwise show without a word.
  if (!overridden.empty()) {
    std::string list;
    for (const auto& v : overridden) list += (list.empty() ? "" : ", ") + v;
    for (const auto& v : filled) list += ", " + v;
    std::string rest;
    for (const auto& v : following) rest += (rest.empty() ? "" : ", ") + v;
    s.notes.push_back(fmt::format(
        "phases fixed by the scenario: {}; their times do not follow workload.log2_n: {}", list,
        rest.empty() ? "log2_n changes only the buffer and copy sizes"
                     : "log2_n changes the buffer and copy sizes and the times of " + rest));
  }
  return s;
}

model::LockHolder locked_remaining(const Scenario& s, std::size_t step,
                                   const std::vector<std::uint64_t>& held, int groups) {
  model::LockHolder h;
  h.known = h.held = true;
  for (std::uint64_t b : held) h.held_bytes += b;
  std::vector<std::uint64_t> will(held);  // per buffer: B held as the steps go on
  std::int64_t grow = 0;  // B more than held now (below 0 once held buffers are freed)
  for (std::size_t j = step; j < s.pipe.steps.size(); ++j) {
    const model::Step& st = s.pipe.steps[j];
    if (st.op == model::StepOp::unlock) break;
    if (st.op != model::StepOp::alloc && st.op != model::StepOp::free) continue;
    const auto b = static_cast<std::size_t>(st.buffer);
    if (st.op == model::StepOp::alloc) {
      int grp = s.buffer_group[b];
      if ((grp >= 0 && grp < groups) || will[b]) continue;  // pre-staged or already held
      will[b] = static_cast<std::uint64_t>(s.buffer_bytes[b]);
      h.to_allocate += will[b];
      grow += static_cast<std::int64_t>(will[b]);
      h.peak_more =
          std::max(h.peak_more, static_cast<std::uint64_t>(std::max<std::int64_t>(grow, 0)));
    } else if (will[b]) {
      grow -= static_cast<std::int64_t>(will[b]);
      will[b] = 0;
    }
  }
  return h;
}

}  // namespace prestage::model
