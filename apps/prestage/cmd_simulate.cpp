// `prestage simulate SCENARIO -o DIR`: runs one scenario in the discrete-event model and writes
// summary.json, events.jsonl, trace.json and manifest.json into DIR (staged in a unique temporary
// directory beside it; --force replaces only a directory prestage wrote: sim/output.hpp).
#include <fmt/core.h>

#include "apps/prestage/command_registry.hpp"
#include "model/output_files.hpp"
#include "sim/output.hpp"
#include "sim/runner.hpp"
#include "sim/scenario.hpp"

namespace {

void add_simulate(CLI::App& app) {
  auto* cmd = app.add_subcommand("simulate", "Run a scenario in the discrete-event model");
  struct Opts {
    std::string scenario, out;
    bool force = false, quiet = false;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("scenario", o->scenario, "Scenario YAML (data/scenarios/...)")->required();
  cmd->add_option("-o,--out", o->out, "Output directory")->required();
  cmd->add_flag("--force", o->force, "Replace an existing output directory");
  cmd->add_flag("-q,--quiet", o->quiet, "Do not print the summary line");
  cmd->callback([o, &app] {
    // Refuse a bad -o before simulating (write_run checks again when it renames).
    prestage::output::check_replaceable_dir(o->out, o->force, "-o");
    prestage::sim::Scenario s = prestage::sim::load_scenario(o->scenario);
    prestage::sim::RunResult r = prestage::sim::run_scenario(s, true);
    std::string cmdline =
        "prestage simulate " + o->scenario + " -o " + o->out + (o->force ? " --force" : "");
    prestage::sim::write_run(o->out, s, r, cmdline, o->force);
    if (!o->quiet) {
      const auto& m = r.summary;
      fmt::print(
          "{}: {} proofs of {} in {:.3f} s = {:.2f} proofs/h; OOM events {}; partitions lost {}, "
          "retried {}; wrote {}\n",
          m.scenario, m.proofs_completed, m.proofs_requested, m.makespan_s, m.throughput_per_hour,
          m.ooms.size(), m.partitions_lost, m.partitions_retried, o->out);
    }
    prestage::cli::set_exit_code(0);
    (void)app;
  });
}

PRESTAGE_REGISTER_COMMAND(add_simulate);

}  // namespace
