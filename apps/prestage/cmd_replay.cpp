// `prestage replay RUN... [--scenario FILE] [--set key=value ...] -o DIR`: replays recorded runs
// of the real prover in the model under another scenario. The step times (kernels, copies,
// allocator and pinning calls) are the model's scaled per event name by how the recorded runs
// measured them against the model (sim/replay.hpp); the policy, VRAM, workers and everything
// they decide are the target scenario's, run in the simulator. Writes the simulator's outputs
// (summary.json, events.jsonl, trace.json, manifest.json with a `replay` object) into DIR.
// RUN: a `prestage run --gpu` output directory, or a directory holding several (found by their
// manifest.json, up to 4 levels deep). Exit codes: 0 done, 2 bad input, 3 internal error.
#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "apps/prestage/command_registry.hpp"
#include "apps/prestage/help_text.hpp"
#include "apps/prestage/output_options.hpp"
#include "model/output_files.hpp"
#include "model/run_output.hpp"
#include "model/scenario.hpp"
#include "sim/replay.hpp"
#include "sim/runner.hpp"
#include "sim/sweep.hpp"

namespace {
namespace fs = std::filesystem;

// The recorded run directories under `arg` (itself, when it holds a manifest.json), sorted.
std::vector<std::string> recorded_runs_under(const std::string& arg) {
  if (!fs::exists(arg)) throw prestage::InputError(arg, 0, "RUN", "does not exist");
  // A run directory itself is taken as given: measure_replay says what is wrong with it.
  if (fs::exists(fs::path(arg) / "manifest.json")) return {arg};
  if (!fs::is_directory(arg))
    throw prestage::InputError(arg, 0, "RUN", "not a run directory (no manifest.json)");
  std::vector<std::string> dirs = prestage::model::measured_run_dirs(arg);
  if (dirs.empty())
    throw prestage::InputError(arg, 0, "RUN",
                               "no recorded runs (manifest.json of `prestage run --gpu`) under it");
  return dirs;
}

void add_replay(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "replay", "Replay recorded GPU runs in the model under another policy, VRAM or workers");
  struct Opts {
    std::vector<std::string> runs, set;
    std::string scenario, calibration, out;
    bool force = false, quiet = false;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("runs", o->runs,
                  "Recorded runs: `prestage run --gpu` output directories, or folders of them")
      ->required();
  cmd->add_option("--scenario", o->scenario,
                  "The scenario to replay them under (default: the one the runs recorded, when "
                  "they share one)");
  cmd->add_option("--set", o->set,
                  "key=value: override one dotted key of that scenario (e.g. policy.name=budget, "
                  "gpus.vram=24GiB); repeatable")
      ->allow_extra_args(false);
  cmd->add_option("--calibration", o->calibration,
                  "Calibration for the recorded runs' model and the replay (e.g. the probe of the "
                  "runs' device session; default: each scenario's own)");
  prestage::cli::add_output_dir_options(cmd, o->out, o->force, &o->quiet);
  namespace help = prestage::cli::help;
  cmd->footer(help::footer(help::with_scenario_parts(
      {{"Output files",
        help::run_dir_outputs("(its `replay` object: the recorded runs and, per event name, "
                              "the factor on the model's time, measured and modelled times)")},
       {"Exit codes", help::exit_codes("done")},
       {"What is replayed",
        "per event name, the recorded runs' measured time over the model's time of the "
        "same event in a simulation of the recorded scenario, each its fastest occurrence (the "
        "step's own cost, not its waits): kernels, uploads, downloads, "
        "allocations, frees, host_register, host_unregister. Not replayed: waits (lock, "
        "sync), policy calls, synthesis. Names no recorded run has keep the model's time "
        "(printed as a note)"}})));
  cmd->callback([o] {
    prestage::output::check_replaceable_dir(o->out, o->force, "-o");
    std::vector<std::string> dirs;
    for (const auto& a : o->runs) {
      auto d = recorded_runs_under(a);
      dirs.insert(dirs.end(), d.begin(), d.end());
    }
    prestage::model::Overrides cal;
    if (!o->calibration.empty())
      cal.push_back({"calibration", fs::absolute(o->calibration).string()});
    const prestage::sim::Replay replay = prestage::sim::measure_replay(dirs, cal);
    std::string target = o->scenario;
    if (target.empty()) {
      std::set<std::string> names(replay.scenarios.begin(), replay.scenarios.end());
      if (names.size() != 1)
        throw prestage::InputError("", 0, "--scenario",
                                   "the recorded runs ran several scenarios: name the one to "
                                   "replay under");
      // The file the first run's manifest names (measure_replay checked that it exists).
      std::ifstream in(fs::path(dirs.front()) / "manifest.json");
      target = nlohmann::json::parse(in)["scenario"].value("file", "");
    }
    prestage::model::Overrides ov = cal;
    for (const auto& spec : o->set) ov.push_back(prestage::sim::parse_set(spec));
    prestage::sim::Scenario s = prestage::sim::load_with_overrides(target, ov, "--set");
    prestage::sim::apply_replay(s, replay);
    prestage::sim::RunResult r = prestage::sim::run_scenario(s, true);
    std::string cmdline = "prestage replay";
    for (const auto& a : o->runs) cmdline += " " + help::shell_word(a);
    if (!o->scenario.empty()) cmdline += " --scenario " + help::shell_word(o->scenario);
    if (!o->calibration.empty()) cmdline += " --calibration " + help::shell_word(o->calibration);
    for (const auto& spec : o->set) cmdline += " --set " + help::shell_word(spec);
    cmdline += " -o " + help::shell_word(o->out) + (o->force ? " --force" : "");
    const nlohmann::json extra = {{"replay", prestage::sim::to_json(replay)}};
    prestage::model::write_run(o->out, s, r, cmdline, o->force, "prestage replay", &extra);
    for (const auto& n : replay.notes) fmt::print(stderr, "note: {}\n", n);
    for (const auto& n : r.summary.notes) fmt::print(stderr, "note: {}: {}\n", target, n);
    if (!o->quiet) {
      const auto& m = r.summary;
      fmt::print(
          "{} (replay of {} run(s)): {} proofs of {} in {:.3f} s = {:.2f} proofs/h ({} of {} "
          "partitions); OOM events {}; partitions lost {}, retried {}; wrote {}\n",
          m.scenario, dirs.size(), m.proofs_completed, m.proofs_requested, m.makespan_s,
          m.throughput_per_hour, m.partitions_done, m.partitions_total, m.ooms.size(),
          m.partitions_lost, m.partitions_retried, o->out);
    }
    prestage::cli::set_exit_code(0);
  });
}

PRESTAGE_REGISTER_COMMAND(add_replay);

}  // namespace
