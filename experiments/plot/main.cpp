// prestage-plot: figures from run directories (`prestage simulate -o DIR`) and sweep CSVs
// (`prestage sweep -o CSV`) and `prestage validate` reports. Subcommands: timeline, memory (each of
// one run or several on one time axis), errors, heatmap, bars.
// Exit codes: 0 figure written, 2 bad input (InputError: file, line, key; also an existing -o
// without --force, or -o naming a directory), 3 gnuplot failure.
#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "experiments/plot/plots.hpp"
#include "model/errors.hpp"

namespace {

// "K=V" -> (K, V); InputError naming `option` otherwise.
std::pair<std::string, std::string> key_value(const std::string& s, const std::string& option) {
  auto eq = s.find('=');
  if (eq == std::string::npos || eq == 0)
    throw prestage::InputError("", 0, option, "expected KEY=VALUE, got '" + s + "'");
  return {s.substr(0, eq), s.substr(eq + 1)};
}

}  // namespace

int main(int argc, char** argv) {
  namespace p = prestage::plot;
  CLI::App app{"prestage-plot: figures (PNG) of prestage runs and sweeps"};
  app.require_subcommand(1);

  p::TimelineOptions tl;
  std::vector<std::string> tl_compare;
  auto* c_tl = app.add_subcommand(
      "timeline", "Timeline of a run (GPU, copy directions, workers); several: stacked panels");
  c_tl->add_option("run_dir", tl.run_dirs, "Run directories (events.jsonl); one panel each")
      ->required();
  c_tl->add_option("--compare", tl_compare, "Another run directory: a panel below; repeatable");
  c_tl->add_option("--label", tl.labels,
                   "Panel title per run, in order (default: manifest tool, scenario, makespan)");
  c_tl->add_option("-o,--out", tl.out, "Output PNG")->required();
  c_tl->add_flag("--force", tl.force, "Replace an existing output PNG (never a directory)");
  c_tl->add_option("--from", tl.from, "Window start (s)");
  c_tl->add_option("--to", tl.to, "Window end (s; default: end of run)");
  c_tl->add_option("--gpu", tl.gpu, "Only this GPU's tracks (default: all)");
  c_tl->add_option("--title", tl.title, "Figure title");
  c_tl->add_option("--width", tl.width, "Width (px)")->check(CLI::Range(400, 8000));

  p::MemoryOptions mem;
  std::vector<std::string> mem_compare;
  auto* c_mem = app.add_subcommand(
      "memory", "Device memory used/reserved(/free) over time, OOMs; several runs on one plot");
  c_mem->add_option("run_dir", mem.run_dirs, "Run directories (events.jsonl)")->required();
  c_mem->add_option("--compare", mem_compare, "Another run directory on the plot; repeatable");
  c_mem->add_option("--label", mem.labels,
                    "Legend label per run, in order (default: manifest tool, scenario, makespan)");
  c_mem->add_option("-o,--out", mem.out, "Output PNG")->required();
  c_mem->add_flag("--force", mem.force, "Replace an existing output PNG (never a directory)");
  c_mem->add_option("--from", mem.from, "Window start (s)");
  c_mem->add_option("--to", mem.to, "Window end (s; default: end of run)");
  c_mem->add_option("--gpu", mem.gpu, "GPU (default 0)");
  c_mem->add_option("--title", mem.title, "Figure title");

  p::ErrorsOptions er;
  auto* c_er = app.add_subcommand(
      "errors", "Model makespan error per scenario of `prestage validate` report.json files");
  c_er->add_option("report", er.reports, "report.json of prestage validate; several: grouped")
      ->required();
  c_er->add_option("-o,--out", er.out, "Output PNG")->required();
  c_er->add_flag("--force", er.force, "Replace an existing output PNG (never a directory)");
  c_er->add_option("--label", er.labels, "Row prefix per report (default: its folder's name)");
  c_er->add_option("--goal", er.goal, "Goal band, relative (default 0.05: +-5%)");
  c_er->add_option("--title", er.title, "Figure title");
  c_er->add_option("--width", er.width, "Width (px)")->check(CLI::Range(400, 8000));

  p::HeatmapOptions hm;
  std::vector<std::string> where;
  auto* c_hm = app.add_subcommand("heatmap", "Heatmap of a sweep CSV column, OOM cells marked");
  c_hm->add_option("csv", hm.csv, "Sweep CSV (prestage sweep)")->required();
  c_hm->add_option("--x", hm.x, "Column for the x axis")->required();
  c_hm->add_option("--y", hm.y, "Column for the y axis")->required();
  c_hm->add_option("--value", hm.value, "Column to colour by")->required();
  c_hm->add_option("--oom", hm.oom, "Column counting out-of-memory events (default oom_events)");
  c_hm->add_option("--facet", hm.facet, "Column: one panel per value");
  c_hm->add_option("--where", where, "COLUMN=VALUE row filter; repeatable");
  c_hm->add_option("--title", hm.title, "Figure title");
  c_hm->add_option("--value-label", hm.value_label, "Colour bar label (with unit)");
  c_hm->add_option("--x-label", hm.x_label, "x axis label");
  c_hm->add_option("--y-label", hm.y_label, "y axis label");
  c_hm->add_option("-o,--out", hm.out, "Output PNG")->required();
  c_hm->add_flag("--force", hm.force, "Replace an existing output PNG (never a directory)");

  p::BarsOptions br;
  std::vector<std::string> runs;
  auto* c_br = app.add_subcommand("bars", "Bars of one summary.json number across runs");
  c_br->add_option("--run", runs, "LABEL=RUN_DIR; repeatable, in bar order")->required();
  c_br->add_option("--value", br.values,
                   "Dotted summary.json key (default throughput); repeatable: a group of bars "
                   "per run, one per key");
  c_br->add_option("--series", br.series, "Legend label of each --value, in order");
  c_br->add_option("--y-label", br.y_label, "y axis label (with unit)");
  c_br->add_option("--title", br.title, "Figure title");
  c_br->add_option("-o,--out", br.out, "Output PNG")->required();
  c_br->add_flag("--force", br.force, "Replace an existing output PNG (never a directory)");

  try {
    app.parse(argc, argv);
    if (*c_tl) {
      tl.run_dirs.insert(tl.run_dirs.end(), tl_compare.begin(), tl_compare.end());
      p::timeline(tl);
    }
    if (*c_mem) {
      mem.run_dirs.insert(mem.run_dirs.end(), mem_compare.begin(), mem_compare.end());
      p::memory(mem);
    }
    if (*c_er) p::errors(er);
    if (*c_hm) {
      for (const auto& w : where) hm.where.push_back(key_value(w, "--where"));
      p::heatmap(hm);
    }
    if (*c_br) {
      for (const auto& r : runs) br.runs.push_back(key_value(r, "--run"));
      p::bars(br);
    }
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  } catch (const prestage::InputError& e) {
    fmt::print(stderr, "prestage-plot: error: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "prestage-plot: failed: {}\n", e.what());
    return 3;
  }
  return 0;
}
