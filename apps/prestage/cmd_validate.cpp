// `prestage validate [SCENARIO...] --from DIR -o OUT`: the model against measured runs. Reads
// the measured run directories under DIR (written by `prestage run --gpu`, recognised by their
// manifest), simulates each scenario they ran afresh with the same file and seed, and writes
// OUT/report.md and OUT/report.json: per scenario the measured spread, the model's value and its
// error for every figure, a verdict per goal and per scenario, and one for the grid. SCENARIO
// arguments restrict the report to those files (matched by scenario name); without them the file
// each manifest names is used (relative paths from the current directory, the repository root).
// `--gpu --repeats K SCENARIO...` first measures each scenario K times on this machine's GPU
// (into OUT/measured/) and validates against those runs.
// `--replay-from DIR` validates the replay instead of the model: each scenario's step times come
// from the measured runs under DIR of the other scenarios (sim/replay.hpp).
// Exit codes: 0 report written (whatever the verdicts), 2 bad input, 4 --gpu without a device.
#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "apps/prestage/command_registry.hpp"
#include "apps/prestage/help_text.hpp"
#include "apps/prestage/output_options.hpp"
#include "model/errors.hpp"
#include "model/output_files.hpp"
#include "model/run_output.hpp"
#include "model/scenario.hpp"
#include "model/validation.hpp"
#include "sim/replay.hpp"
#include "sim/runner.hpp"
#ifdef PRESTAGE_HAVE_STAGING
#include "gpu/staging/runtime.hpp"
#endif

namespace {
namespace fs = std::filesystem;
using nlohmann::json;

json read_json(const fs::path& p) {
  std::ifstream in(p);
  if (!in) throw prestage::InputError(p.string(), 0, "", "cannot read");
  try {
    return json::parse(in);
  } catch (const json::exception& e) {
    throw prestage::InputError(p.string(), 0, "", std::string("not JSON: ") + e.what());
  }
}

struct Measured {
  std::string file, kernels;
  std::vector<json> summaries;
  std::vector<std::string> dirs;
  std::vector<json> recorded;  // each run's manifest `scenario` entry (file, digest)
};
using MeasuredGroups = std::map<std::pair<std::string, std::string>, Measured>;  // (name, kernels)

// The measured runs under `from` (directories whose manifest.json is `prestage run --gpu`'s, up to
// 4 levels deep), grouped by scenario name and kernel mode.
MeasuredGroups find_measured_runs(const std::string& from, const std::string& option) {
  if (!fs::is_directory(from)) throw prestage::InputError(from, 0, option, "not a directory");
  MeasuredGroups groups;
  for (const fs::path dir : prestage::model::measured_run_dirs(from)) {
    json m = read_json(dir / "manifest.json");
    std::string name = m["scenario"].value("name", "");
    std::string kernels = m.contains("runtime") ? m["runtime"].value("kernels", "real") : "real";
    auto& g = groups[{name, kernels}];
    g.kernels = kernels;
    g.file = m["scenario"].value("file", "");
    g.summaries.push_back(read_json(dir / "summary.json"));
    g.dirs.push_back(dir.string());
    g.recorded.push_back(m["scenario"]);
  }
  if (groups.empty())
    throw prestage::InputError(from, 0, option,
                               "no measured runs (manifest.json of "
                               "`prestage run --gpu`) under it");
  return groups;
}

std::string s_calibration(const std::string& scenario, const std::string& override_file) {
  return override_file.empty() ? prestage::model::load_scenario(scenario).calibration_file
                               : override_file;
}

void add_validate(CLI::App& app) {
  auto* cmd = app.add_subcommand("validate", "Compare the model with measured GPU runs");
  struct Opts {
    std::vector<std::string> scenarios;
    std::string from, out, calibration, replay_from;
    std::vector<std::string> holdout;
    bool force = false, gpu = false;
    int repeats = 3;
    // The factor the allocator-cost check scales cudaMalloc / cudaFree by, each way (0: no
    // check). 3: the two H100 probes of 2026-12-07 measured cudaMalloc's fixed cost 0.042 and
    // 0.120 ms (data/calibration/h100-2026-12-07b.yaml, h100-2026-12-07.yaml), a factor 2.8.
    double cost_spread = 3;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("scenario", o->scenarios, "Scenario files (default: those the runs name)");
  cmd->add_option("--from", o->from, "Directory of measured runs (prestage run --gpu outputs)");
  cmd->add_flag("--gpu", o->gpu, "Measure the scenarios on this machine's GPU first");
  cmd->add_option("--calibration", o->calibration,
                  "Simulate with this calibration instead of the scenario's (e.g. the probe of the "
                  "session that measured the runs)");
  cmd->add_option("--replay-from", o->replay_from,
                  "Replay: scale the model's step times by those of the measured runs under this "
                  "directory, each scenario from the other scenarios' runs (sim/replay.hpp)");
  cmd->add_option("--holdout", o->holdout,
                  "Scenario names in the grid's held-back part (reported in their own section)");
  cmd->add_option("--repeats", o->repeats, "Measured runs per scenario with --gpu")
      ->check(CLI::Range(1, 100));
  prestage::cli::add_output_dir_options(cmd, o->out, o->force, nullptr,
                                        "Output directory (report.md, report.json)");
  cmd->add_option("--cost-spread", o->cost_spread,
                  "Also simulate with cudaMalloc/cudaFree costs divided and multiplied by this "
                  "factor; a verdict that changes is reported as cost-dependent (default 3; 0: "
                  "off)")
      ->check(CLI::Range(0.0, 100.0));
  namespace help = prestage::cli::help;
  cmd->footer(help::footer(help::with_scenario_parts(
      {{"Output files",
        "in OUT (-o): report.md, report.json, manifest.json (and measured/, the "
        "runs, with --gpu); --force replaces only a directory prestage wrote"},
       {"Exit codes", help::exit_codes("report written (whatever the verdicts)",
                                       " -- also: no measured runs under --from",
                                       "; 4 unavailable: --gpu without a usable CUDA device or "
                                       "in a build without CUDA")},
       {"Accepts",
        "--from: a directory of `prestage run --gpu` outputs (found by their "
        "manifest.json, up to 4 levels deep); --replay-from: the same kind of directory, "
        "whose runs of the other scenarios give each scenario its step times (report.md "
        "then validates the replay, not the model); --repeats 1..100"}})));
  cmd->callback([o] {
    if (o->from.empty() == !o->gpu)
      throw prestage::InputError("", 0, "--from", "give --from DIR (committed runs) or --gpu");
    MeasuredGroups groups;
    // A unique temporary directory beside OUT, renamed into place at the end; --force replaces
    // only a directory prestage wrote (model/output_files.hpp).
    prestage::output::OutputDir outdir(o->out, o->force, "-o");
    const fs::path tmp = outdir.path();
    try {
      std::string from = o->from;
      if (o->gpu) {
#ifdef PRESTAGE_HAVE_STAGING
        namespace st = prestage::staging;
        if (o->scenarios.empty())
          throw prestage::InputError("", 0, "scenario", "--gpu needs the scenario files");
        for (const auto& f : o->scenarios) {
          auto s = prestage::model::load_scenario(f);
          std::string why;
          if (!st::cuda_devices_available(s.gpus, &why))
            throw prestage::UnavailableError("validate --gpu: no usable CUDA device (" + why + ")");
          for (int k = 1; k <= o->repeats; ++k) {
            json extra = json::object();
            auto r = st::run_on_gpu(s, st::GpuRunOptions{}, &extra);
            prestage::model::write_run(
                (tmp / "measured" / fmt::format("{}__real__r{}", s.name, k)).string(), s, r,
                "prestage validate --gpu " + f, false, "prestage run --gpu", &extra);
          }
        }
        from = (tmp / "measured").string();
#else
        throw prestage::UnavailableError("validate --gpu: this build has no CUDA");
#endif
      }
      groups = find_measured_runs(from, "--from");
      // Replay: the recorded runs whose step times replace the model's (sim/replay.hpp).
      MeasuredGroups recorded;
      if (!o->replay_from.empty()) recorded = find_measured_runs(o->replay_from, "--replay-from");
      const auto held_back = [&](const std::string& name) {
        return std::find(o->holdout.begin(), o->holdout.end(), name) != o->holdout.end();
      };
      json skipped = json::array();
      std::map<std::string, std::string> files;  // scenario name -> file
      for (const auto& f : o->scenarios) files[prestage::model::load_scenario(f).name] = f;
      std::vector<prestage::model::ScenarioValidation> out;
      json sources = json::array();
      for (auto& [key, g] : groups) {
        std::string file = files.count(key.first) ? files[key.first] : g.file;
        if (!o->scenarios.empty() && !files.count(key.first)) continue;
        prestage::model::Overrides ov;
        if (!o->calibration.empty())
          ov.push_back({"calibration", fs::absolute(o->calibration).string()});
        // Replay: step times from the recorded runs of the other scenarios of the same kernel
        // mode, never this scenario's own runs nor the held-back part's.
        std::optional<prestage::sim::Replay> replay;
        if (!o->replay_from.empty()) {
          std::vector<std::string> src;
          for (const auto& [rk, rg] : recorded)
            if (rk.second == key.second && rk.first != key.first && !held_back(rk.first))
              src.insert(src.end(), rg.dirs.begin(), rg.dirs.end());
          if (src.empty()) {
            skipped.push_back({{"scenario", key.first},
                               {"kernels", key.second},
                               {"why", "no recorded run of another scenario to replay"}});
            continue;
          }
          replay = prestage::sim::measure_replay(src, ov);
        }
        const auto load = [&](const prestage::model::Overrides& with) {
          auto sc = prestage::model::load_scenario(file, with);
          if (replay) prestage::sim::apply_replay(sc, *replay);
          return sc;
        };
        auto s = load(ov);
        auto sim = prestage::sim::run_scenario(s, false);
        const json simulated = prestage::model::to_json(sim.summary);
        out.push_back(
            prestage::model::validate_scenario(key.first, key.second, g.summaries, simulated));
        // Robustness: the simulator again with the workers' starts 1 ms apart, each way round.
        if (s.workers_per_gpu >= 2) {
          std::vector<json> shifted = {simulated};
          for (const char* off : {"0.001", "-0.001"}) {
            auto ov2 = ov;
            ov2.push_back({"run.worker_start_offset", off});
            auto s2 = load(ov2);
            shifted.push_back(
                prestage::model::to_json(prestage::sim::run_scenario(s2, false).summary));
          }
          out.back().model_timing = prestage::model::timing_check(
              {"as given", "worker k starts k ms later", "worker k starts (W-1-k) ms later"},
              shifted);
        }
        // Robustness to calibrated costs: the synchronous allocator's costs / and x cost_spread.
        if (o->cost_spread > 1) {
          std::vector<json> scaled = {simulated};
          for (double f : {1 / o->cost_spread, o->cost_spread}) {
            auto s3 = s;  // the scenario as loaded (replay applied), its costs scaled
            for (auto* c : {&s3.cal.sync_malloc, &s3.cal.sync_free}) {
              c->fixed_s *= f;
              c->per_gib_s *= f;
            }
            scaled.push_back(
                prestage::model::to_json(prestage::sim::run_scenario(s3, false).summary));
          }
          out.back().model_costs = prestage::model::timing_check(
              {"as given", fmt::format("cudaMalloc and cudaFree costs / {:g}", o->cost_spread),
               fmt::format("x {:g}", o->cost_spread)},
              scaled);
        }
        std::vector<std::string> run_labels;
        for (const auto& d : g.dirs) {
          const std::string name = fs::path(d).filename().string();  // <scenario>__<mode>__r<k>
          const auto cut = name.rfind("__");
          run_labels.push_back(cut == std::string::npos ? name : name.substr(cut + 2));
        }
        out.back().measured_timing = prestage::model::timing_check(run_labels, g.summaries);
        out.back().held_back = held_back(key.first);
        // Each run's recorded digest (SHA-256; FNV-1a 64 in runs before 2026-12-06) of its file.
        bool same = std::all_of(g.recorded.begin(), g.recorded.end(), [&](const json& e) {
          return prestage::model::same_file_as_recorded(e, file) == true;
        });
        sources.push_back({{"scenario", key.first},
                           {"kernels", key.second},
                           {"file", file},
                           {"file_sha256", prestage::model::file_sha256(file)},
                           {"calibration", s_calibration(file, o->calibration)},
                           {"measured_with_the_same_file", same},
                           {"measured_runs", g.dirs}});
        if (replay) sources.back()["replay"] = prestage::sim::to_json(*replay);
      }
      std::string md = prestage::model::validation_markdown(out);
      if (!o->replay_from.empty())
        md = "Model: **replay**. Each scenario's step times (kernels, copies, allocator and "
             "pinning calls) are the model's scaled per event name by the measured/modelled "
             "ratio of the recorded runs under `" +
             o->replay_from +
             "` of the other scenarios (never the scenario's own runs, nor the held-back "
             "part); the policy's decisions, lock, link sharing and memory stay the model's. "
             "report.json `sources[].replay` lists the runs and factors.\n\n" +
             md;
      std::ofstream(tmp / "report.md") << md;
      json j = {
          {"tool", "prestage validate"}, {"from", o->from},
          {"sources", sources},          {"replay_from", o->replay_from},
          {"replay_skipped", skipped},   {"scenarios", prestage::model::validation_json(out)}};
      std::ofstream(tmp / "report.json") << j.dump(2) << "\n";
      // Every file by relative path (measured/ runs too): --force checks the whole tree.
      std::vector<std::string> listed = prestage::output::list_files(tmp);
      listed.push_back("manifest.json");
      json manifest = {
          {prestage::output::kMarkerKey, 1}, {"tool", "prestage validate"}, {"files", listed}};
      std::ofstream(tmp / "manifest.json") << manifest.dump(2) << "\n";
      outdir.commit();
      int ok = 0;
      for (const auto& v : out) ok += v.pass();
      fmt::print("validate: {} scenario(s), {} within every goal; report {}\n", out.size(), ok,
                 (outdir.target() / "report.md").string());
    } catch (...) {
      throw;  // the OutputDir removes its temporary directory
    }
    prestage::cli::set_exit_code(0);
  });
}

PRESTAGE_REGISTER_COMMAND(add_validate);

}  // namespace
