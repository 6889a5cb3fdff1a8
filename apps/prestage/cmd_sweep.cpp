// `prestage sweep SCENARIO --vary key=v1,v2 [--vary ...] -j N -o out.csv`: runs the cross product
// of the varied scenario keys in parallel and writes one CSV row per point (written to a unique
// temporary file beside out.csv, renamed at the end; an existing out.csv is replaced only with
// --force, a directory never: model/output_files.hpp). Progress on stderr when it is a terminal.
#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "apps/prestage/command_registry.hpp"
#include "apps/prestage/help_text.hpp"
#include "model/errors.hpp"
#include "model/output_files.hpp"
#include "sim/sweep.hpp"

namespace {

void add_sweep(CLI::App& app) {
  auto* cmd = app.add_subcommand("sweep", "Run a scenario over the cross product of --vary values");
  struct Opts {
    std::string scenario, out;
    std::vector<std::string> vary;
    int jobs = 1;
    bool force = false;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("scenario", o->scenario, "Scenario YAML")->required();
  cmd->add_option("--vary", o->vary, "key=v1,v2,... (dotted scenario key); repeatable")->required();
  cmd->add_option("-j,--jobs", o->jobs, "Threads")->check(CLI::Range(1, 1024));
  cmd->add_option("-o,--out", o->out, "Output CSV")->required();
  cmd->add_flag("--force", o->force, "Replace an existing output CSV (never a directory)");
  namespace help = prestage::cli::help;
  cmd->footer(help::footer(help::with_scenario_parts(
      {{"Output files",
        "the CSV (-o): one row per point, a column per --vary key, then "
        "proofs_completed, makespan_s, throughput_proofs_per_hour, oom_events, "
        "partitions_lost, partitions_retried, gpu_busy_share, "
        "pcie_h2d_utilisation, peak_used_B, peak_reserved_B, device_wide_wait_s, "
        "first_oom_where, partitions_done, throughput_partitions_per_hour, infeasible (why a "
        "point was not simulated: a buffer larger than its card; its other columns are then "
        "empty); written to a temporary file beside it and renamed"},
       {"Exit codes",
        help::exit_codes("done (infeasible points marked)", " (every point infeasible too)")}},
      "; --vary policy.name=naive,tiers compares them",
      ". --vary takes any of them dotted, e.g. "
      "policy.params.margin=0,512MiB,2GiB or gpus.workers_per_gpu=1,2")));
  cmd->callback([o] {
    // Check the output before spending time on the sweep (and again when it is renamed).
    prestage::output::check_replaceable_file(o->out, o->force, "-o");
    std::vector<prestage::sim::Vary> vary;
    for (const auto& v : o->vary) vary.push_back(prestage::sim::parse_vary(v));
    bool tty = isatty(fileno(stderr));
    auto progress = [tty](std::size_t done, std::size_t total) {
      if (tty) fmt::print(stderr, "\rsweep: {}/{} points", done, total);
    };
    auto points = prestage::sim::run_sweep(o->scenario, vary, o->jobs, progress);
    if (tty) fmt::print(stderr, "\n");
    prestage::output::write_file_atomic(o->out, o->force, [&](std::ostream& out) {
      prestage::sim::write_sweep_csv(out, vary, points);
    });
    fmt::print("sweep: {} points -> {}\n", points.size(), o->out);
    // The points' notes (summary.json `notes` of a simulate run), each distinct one once, with
    // how many points it applies to: e.g. phases that stay fixed while --vary changes log2_n.
    std::vector<std::pair<std::string, std::size_t>> notes;
    for (const auto& p : points)
      for (const auto& n : p.summary.notes) {
        auto it =
            std::find_if(notes.begin(), notes.end(), [&](const auto& e) { return e.first == n; });
        if (it == notes.end())
          notes.emplace_back(n, 1);
        else
          ++it->second;
      }
    for (const auto& [n, k] : notes)
      fmt::print(stderr, "note: {} of {} points: {}\n", k, points.size(), n);
    std::size_t infeasible = 0;
    const std::string* first = nullptr;
    for (const auto& p : points)
      if (!p.infeasible.empty() && !infeasible++) first = &p.infeasible;
    if (infeasible)
      fmt::print(stderr,
                 "note: {} of {} points infeasible, not simulated (column `infeasible`; their "
                 "other columns are empty), e.g. {}\n",
                 infeasible, points.size(), *first);
    prestage::cli::set_exit_code(0);
  });
}

PRESTAGE_REGISTER_COMMAND(add_sweep);

}  // namespace
