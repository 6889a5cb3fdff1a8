// `prestage simulate SCENARIO -o DIR [--set key=value ...]`: runs one scenario in the
// discrete-event model and writes summary.json, events.jsonl, trace.json and manifest.json into
// DIR (staged in a unique temporary directory beside it; --force replaces only a directory
// prestage wrote: model/output_files.hpp). --set changes one dotted scenario key (sweep's --vary
// syntax, one value) without a new file; the manifest's command_line records it.
#include <fmt/core.h>

#include <string>
#include <vector>

#include "apps/prestage/command_registry.hpp"
#include "apps/prestage/help_text.hpp"
#include "apps/prestage/output_options.hpp"
#include "model/output_files.hpp"
#include "model/run_output.hpp"
#include "model/scenario.hpp"
#include "sim/runner.hpp"
#include "sim/sweep.hpp"

namespace {

void add_simulate(CLI::App& app) {
  auto* cmd = app.add_subcommand("simulate", "Run a scenario in the discrete-event model");
  struct Opts {
    std::string scenario, out;
    std::vector<std::string> set;
    bool force = false, quiet = false;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("scenario", o->scenario, "Scenario YAML (data/scenarios/...)")->required();
  cmd->add_option("--set", o->set,
                  "key=value: override one dotted scenario key (e.g. gpus.vram=24GiB); repeatable")
      ->allow_extra_args(false);
  prestage::cli::add_output_dir_options(cmd, o->out, o->force, &o->quiet);
  namespace help = prestage::cli::help;
  cmd->footer(help::footer(help::with_scenario_parts(
      {{"Output files",
        help::run_dir_outputs("",
                              "staged in a temporary directory beside DIR and renamed at the end")},
       {"Exit codes", help::exit_codes("done")}},
      "",
      ". --set takes any of them dotted, e.g. gpus.vram=24GiB or "
      "policy.params.margin=512MiB")));
  cmd->callback([o, &app] {
    // Refuse a bad -o before simulating (write_run checks again when it renames).
    prestage::output::check_replaceable_dir(o->out, o->force, "-o");
    prestage::sim::Overrides overrides;
    for (const auto& spec : o->set) overrides.push_back(prestage::sim::parse_set(spec));
    prestage::sim::Scenario s = prestage::sim::load_with_overrides(o->scenario, overrides, "--set");
    prestage::sim::RunResult r = prestage::sim::run_scenario(s, true);
    std::string cmdline =
        "prestage simulate " + o->scenario + " -o " + o->out + (o->force ? " --force" : "");
    for (const auto& spec : o->set) cmdline += " --set " + prestage::cli::help::shell_word(spec);
    prestage::model::write_run(o->out, s, r, cmdline, o->force);
    // What the numbers do not say (summary.json `notes`), on stderr even with -q.
    for (const auto& n : r.summary.notes) fmt::print(stderr, "note: {}: {}\n", o->scenario, n);
    if (!o->quiet) {
      const auto& m = r.summary;
      fmt::print(
          "{}: {} proofs of {} in {:.3f} s = {:.2f} proofs/h ({} of {} partitions, {:.2f} "
          "partitions/h); OOM events {}; partitions lost {}, retried {}; wrote {}\n",
          m.scenario, m.proofs_completed, m.proofs_requested, m.makespan_s, m.throughput_per_hour,
          m.partitions_done, m.partitions_total, prestage::model::partitions_per_hour(m),
          m.ooms.size(), m.partitions_lost, m.partitions_retried, o->out);
    }
    prestage::cli::set_exit_code(0);
    (void)app;
  });
}

PRESTAGE_REGISTER_COMMAND(add_simulate);

}  // namespace
