// `prestage sweep SCENARIO --vary key=v1,v2 [--vary ...] -j N -o out.csv`: runs the cross product
// of the varied scenario keys in parallel and writes one CSV row per point (written to
// out.csv.tmp, renamed at the end). Progress on stderr when it is a terminal.
#include <fmt/core.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "apps/prestage/command_registry.hpp"
#include "model/errors.hpp"
#include "sim/sweep.hpp"

namespace {

void add_sweep(CLI::App& app) {
  auto* cmd = app.add_subcommand("sweep", "Run a scenario over the cross product of --vary values");
  struct Opts {
    std::string scenario, out;
    std::vector<std::string> vary;
    int jobs = 1;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("scenario", o->scenario, "Scenario YAML")->required();
  cmd->add_option("--vary", o->vary, "key=v1,v2,... (dotted scenario key); repeatable")->required();
  cmd->add_option("-j,--jobs", o->jobs, "Threads")->check(CLI::Range(1, 1024));
  cmd->add_option("-o,--out", o->out, "Output CSV")->required();
  cmd->callback([o] {
    std::vector<prestage::sim::Vary> vary;
    for (const auto& v : o->vary) vary.push_back(prestage::sim::parse_vary(v));
    bool tty = isatty(fileno(stderr));
    auto progress = [tty](std::size_t done, std::size_t total) {
      if (tty) fmt::print(stderr, "\rsweep: {}/{} points", done, total);
    };
    auto points = prestage::sim::run_sweep(o->scenario, vary, o->jobs, progress);
    if (tty) fmt::print(stderr, "\n");
    std::string tmp = o->out + ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary);
      if (!out) throw prestage::InputError("", 0, "-o", "cannot write " + tmp);
      prestage::sim::write_sweep_csv(out, vary, points);
      if (!out) throw std::runtime_error("write failed: " + tmp);
    }
    std::filesystem::rename(tmp, o->out);
    fmt::print("sweep: {} points -> {}\n", points.size(), o->out);
    prestage::cli::set_exit_code(0);
  });
}

PRESTAGE_REGISTER_COMMAND(add_sweep);

}  // namespace
