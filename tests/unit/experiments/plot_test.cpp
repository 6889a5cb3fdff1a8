// System: the prestage-plot program, run as a user runs it, on a tiny simulated run directory
// (and a second one with more VRAM, for the multi-run figures), a tiny sweep CSV made here by the
// simulator (tests/data/sim/tiny.yaml: 2 proofs x 2 partitions at n = 2^20 on the synthetic
// calibration) and a hand-made `prestage validate` report.json.
// Expectations: each subcommand exits 0 and writes a PNG (8-byte PNG signature, more than a
// header); bad input exits 2, names the file (and line/key where there is one) on stderr, and
// leaves no figure or temporary file behind. Tolerance: none (exact codes and names).
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "experiments/plot/figure.hpp"
#include "model/run_output.hpp"
#include "model/scenario.hpp"
#include "sim/runner.hpp"
#include "sim/sweep.hpp"

namespace fs = std::filesystem;

namespace {

struct Result {
  int rc = -1;
  std::string err;  // stdout + stderr
};
Result run_plot(const std::string& args) {
  std::string cmd = std::string(PRESTAGE_PLOT_BIN) + " " + args + " 2>&1";
  Result r;
  FILE* p = popen(cmd.c_str(), "r");
  BOOST_REQUIRE(p);
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.err.append(buf, n);
  int st = pclose(p);
  r.rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

// A `prestage validate` report.json (model/validation.cpp validation_json) around `scenarios`.
std::string report_json(const std::string& scenarios) {
  return "{\"tool\": \"prestage validate\", \"from\": \"runs\", \"sources\": [],\n"
         " \"scenarios\": [" +
         scenarios + "]}\n";
}
std::string scenario_json(const std::string& name, bool held_back, const std::string& makespan) {
  return "{\"scenario\": \"" + name + "\", \"kernels\": \"real\", \"runs\": 2, \"held_back\": " +
         (held_back ? "true" : "false") +
         ", \"pass\": false, \"failed_goals\": 1, \"figures\": [{\"name\": \"throughput "
         "(proofs/h)\", "
         "\"median\": 1, \"min\": 1, \"max\": 1, \"model\": 1, \"rel_error\": 0}, {\"name\": "
         "\"makespan\", \"unit\": \"s\", " +
         makespan + "}]}";
}
// One development scenario within the goal, one held back outside it, one with a median of 0
// (rel_error null).
const std::string kGoodScenarios =
    scenario_json(
        "e01_dev", false,
        "\"median\": 10, \"min\": 9.8, \"max\": 10.3, \"model\": 10.2, \"rel_error\": 0.02") +
    ", " +
    scenario_json("e03_held", true,
                  "\"median\": 20, \"min\": 19, \"max\": 21, \"model\": 17, \"rel_error\": -0.15") +
    ", " +
    scenario_json("zero", false,
                  "\"median\": 0, \"min\": 0, \"max\": 0, \"model\": 1, \"rel_error\": null");

// Run directories and a sweep CSV of the tiny scenario and a report.json, made once for all cases.
struct Fixture {
  fs::path dir, run, run2, csv, report;
  Fixture() {
    dir = fs::temp_directory_path() / ("prestage-plot-test-" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string scenario = "tests/data/sim/tiny.yaml";
    run = dir / "run";
    auto s = prestage::model::load_scenario(scenario);
    prestage::model::write_run(run.string(), s, prestage::sim::run_scenario(s, true), "test",
                               false);
    run2 = dir / "run2";
    auto s2 = prestage::model::load_scenario(scenario, {{"gpus.vram", "24GiB"}});
    prestage::model::write_run(run2.string(), s2, prestage::sim::run_scenario(s2, true), "test",
                               false);
    report = dir / "report.json";
    std::ofstream(report) << report_json(kGoodScenarios);
    std::vector<prestage::sim::Vary> vary = {prestage::sim::parse_vary("gpus.workers_per_gpu=1,2"),
                                             prestage::sim::parse_vary("gpus.vram=16GiB,24GiB")};
    auto points = prestage::sim::run_sweep(scenario, vary, 1);
    csv = dir / "sweep.csv";
    std::ofstream out(csv);
    prestage::sim::write_sweep_csv(out, vary, points);
  }
  ~Fixture() { fs::remove_all(dir); }
  // Files in dir whose name contains `part` (temporary leftovers).
  int leftovers(const std::string& part) const {
    int k = 0;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().filename().string().find(part) != std::string::npos) ++k;
    return k;
  }
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void expect_png(const fs::path& p, const Result& r) {
  BOOST_TEST(r.rc == 0, r.err);
  BOOST_TEST(prestage::plot::is_png(p.string()), p << " is not a PNG");
  BOOST_TEST((fs::exists(p) && fs::file_size(p) > 1000), p << " is nearly empty");
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(plot_cli, Fixture)

BOOST_AUTO_TEST_CASE(timeline_memory_heatmap_bars_write_pngs) {
  fs::path tl = dir / "timeline.png", mem = dir / "memory.png", hm = dir / "heatmap.png",
           bars = dir / "bars.png";
  expect_png(tl, run_plot("timeline " + run.string() + " -o " + tl.string()));
  expect_png(mem, run_plot("memory " + run.string() + " -o " + mem.string()));
  expect_png(hm,
             run_plot("heatmap " + csv.string() +
                      " --x gpus.vram --y gpus.workers_per_gpu --value throughput_proofs_per_hour" +
                      " -o " + hm.string()));
  expect_png(bars, run_plot("bars --run a=" + run.string() + " --run b=" + run.string() + " -o " +
                            bars.string()));
  BOOST_TEST(leftovers(".tmp") + leftovers("prestage-") == 0);
}

BOOST_AUTO_TEST_CASE(a_window_zooms_the_timeline) {
  fs::path tl = dir / "zoom.png";
  expect_png(tl, run_plot("timeline " + run.string() + " --from 0.05 --to 0.2 -o " + tl.string()));
  Result r = run_plot("timeline " + run.string() + " --from 0.3 --to 0.2 -o " + tl.string() + "x");
  BOOST_TEST(r.rc == 2, r.err);
  BOOST_TEST(r.err.find("key '--to'") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(malformed_event_log_exits_2_naming_file_and_line) {
  fs::path bad = dir / "badrun";
  fs::create_directories(bad);
  std::ifstream in(run / "events.jsonl");
  std::ofstream out(bad / "events.jsonl");
  std::string line;
  for (int i = 1; std::getline(in, line); ++i)
    out << (i == 3 ? "{\"t_start\": 1, oops" : line) << "\n";
  out.close();
  fs::path png = dir / "bad.png";
  Result r = run_plot("timeline " + bad.string() + " -o " + png.string());
  BOOST_TEST(r.rc == 2, r.err);
  BOOST_TEST(r.err.find((bad / "events.jsonl").string() + ":3") != std::string::npos, r.err);
  BOOST_TEST(!fs::exists(png));
  BOOST_TEST(leftovers(".tmp") + leftovers("prestage-") == 0);
}

BOOST_AUTO_TEST_CASE(event_with_a_missing_field_names_the_key) {
  fs::path bad = dir / "badkey";
  fs::create_directories(bad);
  std::ofstream(bad / "events.jsonl")
      << "{\"t_start\":0,\"t_end\":1,\"track\":\"gpu0/compute\",\"name\":\"x\",\"kind\":"
         "\"compute\",\"gpu\":0,\"worker\":0,\"partition\":0,\"bytes\":0}\n"
      << "{\"t_start\":0,\"track\":\"gpu0/compute\",\"name\":\"x\",\"kind\":\"compute\"}\n";
  Result r = run_plot("memory " + bad.string() + " -o " + (dir / "m.png").string());
  BOOST_TEST(r.rc == 2, r.err);
  BOOST_TEST(r.err.find((bad / "events.jsonl").string() + ":2: key 't_end'") != std::string::npos,
             r.err);
}

BOOST_AUTO_TEST_CASE(missing_run_dir_and_unknown_column_exit_2_naming_the_file) {
  Result r = run_plot("timeline " + (dir / "nope").string() + " -o " + (dir / "x.png").string());
  BOOST_TEST(r.rc == 2, r.err);
  BOOST_TEST(r.err.find((dir / "nope").string()) != std::string::npos, r.err);

  r = run_plot("heatmap " + csv.string() +
               " --x gpus.vram --y gpus.workers_per_gpu --value nope -o " +
               (dir / "h.png").string());
  BOOST_TEST(r.rc == 2, r.err);
  BOOST_TEST(r.err.find(csv.string() + ":1: key '--value'") != std::string::npos, r.err);
  BOOST_TEST(!fs::exists(dir / "h.png"));
}

BOOST_AUTO_TEST_CASE(non_numeric_csv_cell_names_file_line_and_column) {
  fs::path bad = dir / "bad.csv";
  std::ofstream(bad) << "vram,workers,throughput,oom_events\n16GiB,1,10,0\n24GiB,1,ten,0\n";
  Result r = run_plot("heatmap " + bad.string() + " --x vram --y workers --value throughput -o " +
                      (dir / "h2.png").string());
  BOOST_TEST(r.rc == 2, r.err);
  BOOST_TEST(r.err.find(bad.string() + ":3: key 'throughput'") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(heatmap_draws_an_infeasible_sweep_point_as_such) {
  // System: prestage-plot heatmap on a sweep CSV whose `infeasible` column marks one of 4 cells
  // (its value cells empty, as `prestage sweep` writes them), and on one whose every cell is.
  // Expectation: a PNG each time (exit 0): an empty cell of an infeasible row is not a parse
  // error. Tolerance: none.
  fs::path inf = dir / "inf.csv", all = dir / "all.csv";
  std::ofstream(inf) << "vram,workers,throughput,oom_events,infeasible\n"
                        "16GiB,1,10,0,\n16GiB,2,12,1,\n4GiB,1,,,\"buffer d_a too large\"\n"
                        "4GiB,2,,,\"buffer d_a too large\"\n";
  std::ofstream(all) << "vram,workers,throughput,oom_events,infeasible\n4GiB,1,,,x\n";
  for (const auto& csv_path : {inf, all}) {
    fs::path png = dir / (csv_path.stem().string() + ".png");
    expect_png(png, run_plot("heatmap " + csv_path.string() +
                             " --x vram --y workers --value throughput -o " + png.string()));
  }
}

BOOST_AUTO_TEST_CASE(heatmap_cell_chosen_twice_is_an_error_not_a_silent_overwrite) {
  // Without --where/--facet, the 2 x 2 sweep projected on one axis pair that drops a varied key
  // maps two rows to one cell.
  Result r = run_plot("heatmap " + csv.string() +
                      " --x gpus.vram --y proofs_completed --value throughput_proofs_per_hour -o " +
                      (dir / "h3.png").string());
  BOOST_TEST(r.rc == 2, r.err);
  BOOST_TEST(r.err.find("same cell as line") != std::string::npos, r.err);
}

// Issue 16: an existing PNG is replaced only with --force, a directory never; refusals exit 2 and
// leave the user's files as they were, and no temporary.
BOOST_AUTO_TEST_CASE(existing_png_needs_force_and_a_directory_is_never_replaced) {
  fs::path png = dir / "mine.png", folder = dir / "figs";
  fs::create_directories(folder);
  std::ofstream(png) << "not really a png, but the user's";
  std::ofstream(folder / "keep.txt") << "mine";
  const std::string tl = "timeline " + run.string() + " -o ";
  Result r = run_plot(tl + png.string());
  BOOST_TEST(r.rc == 2, r.err);
  BOOST_TEST(r.err.find("exists") != std::string::npos, r.err);
  BOOST_TEST(!prestage::plot::is_png(png.string()));
  for (const std::string o : {folder.string(), folder.string() + "/", dir.string() + "/new.png/"})
    for (const char* f : {"", " --force"}) {
      Result x = run_plot(tl + o + f);
      BOOST_TEST(x.rc == 2, o << f << ": " << x.err);
    }
  BOOST_TEST(fs::is_directory(folder));
  BOOST_TEST(slurp(folder / "keep.txt") == "mine");
  BOOST_TEST(!fs::exists(dir / "new.png"));
  expect_png(png, run_plot(tl + png.string() + " --force"));
  BOOST_TEST(leftovers(".tmp") + leftovers("prestage-") == 0);
  for (const auto& e : fs::directory_iterator(folder))
    BOOST_TEST(e.path().filename() == "keep.txt");
}

// Issue 21: two or more runs on one time axis (stacked timeline panels, one memory plot), labels
// by default from the manifests or given per run; a label count that is not the run count, or a
// missing run directory among them, exits 2 naming it, and writes nothing.
BOOST_AUTO_TEST_CASE(two_runs_make_a_stacked_timeline_and_one_memory_plot) {
  fs::path tl = dir / "tl2.png", tl3 = dir / "tl3.png", mem = dir / "mem2.png";
  expect_png(tl, run_plot("timeline " + run.string() + " --compare " + run2.string() + " -o " +
                          tl.string()));
  expect_png(tl3, run_plot("timeline " + run.string() + " " + run2.string() + " " + run.string() +
                           " --label A --label B --label C --to 0.3 -o " + tl3.string()));
  expect_png(mem, run_plot("memory " + run.string() + " --compare " + run2.string() +
                           " --label measured --label model -o " + mem.string()));
  BOOST_TEST(leftovers(".tmp") + leftovers("prestage-") == 0);
}

BOOST_AUTO_TEST_CASE(multi_run_bad_input_exits_2_and_writes_nothing) {
  const fs::path png = dir / "never.png", nope = dir / "no_such_run";
  for (const std::string cmd : {"timeline", "memory"}) {
    Result r =
        run_plot(cmd + " " + run.string() + " --compare " + nope.string() + " -o " + png.string());
    BOOST_TEST(r.rc == 2, cmd << ": " << r.err);
    BOOST_TEST(r.err.find(nope.string() + ": not a run directory") != std::string::npos, r.err);
    r = run_plot(cmd + " " + run.string() + " " + run2.string() + " --label only-one -o " +
                 png.string());
    BOOST_TEST(r.rc == 2, cmd << ": " << r.err);
    BOOST_TEST(r.err.find("key '--label'") != std::string::npos, r.err);
  }
  // A malformed manifest.json of one run: named with its key.
  fs::path bad = dir / "badmanifest";
  fs::create_directories(bad);
  fs::copy_file(run / "events.jsonl", bad / "events.jsonl");
  std::ofstream(bad / "manifest.json") << "{\"tool\": 3}\n";
  Result r = run_plot("timeline " + run.string() + " " + bad.string() + " -o " + png.string());
  BOOST_TEST(r.rc == 2, r.err);
  BOOST_TEST(r.err.find((bad / "manifest.json").string() + ": key 'tool'") != std::string::npos,
             r.err);
  BOOST_TEST(!fs::exists(png));
  BOOST_TEST(leftovers(".tmp") + leftovers("prestage-") == 0);
}

// Issue 21: the error summary across the validation grid, from report.json files.
BOOST_AUTO_TEST_CASE(errors_figure_from_validation_reports) {
  fs::path png = dir / "errors.png", png2 = dir / "errors2.png";
  expect_png(png, run_plot("errors " + report.string() + " -o " + png.string()));
  fs::path other = dir / "b";
  fs::create_directories(other);
  std::ofstream(other / "report.json") << report_json(scenario_json(
      "e02_b", false, "\"median\": 5, \"min\": 4, \"max\": 6, \"model\": 5.5, \"rel_error\": 0.1"));
  expect_png(png2, run_plot("errors " + report.string() + " " + (other / "report.json").string() +
                            " --label a --label b -o " + png2.string()));
  BOOST_TEST(leftovers(".tmp") + leftovers("prestage-") == 0);
}

BOOST_AUTO_TEST_CASE(malformed_report_exits_2_naming_file_and_key) {
  const fs::path png = dir / "err_never.png";
  struct Case {
    std::string text, expect;
  };
  const fs::path bad = dir / "bad_report.json";
  const std::string f = bad.string();
  const std::vector<Case> cases = {
      {"{\"scenarios\": [\n  {\"scenario\": \"x\",\n oops", f + ":3: not valid JSON"},
      {"{\"tool\": \"prestage validate\"}", f + ": key 'scenarios': missing field"},
      {report_json(
           scenario_json("x", false,
                         "\"median\": 1, \"min\": 1, \"max\": 1, \"model\": 1, "
                         "\"rel_error\": 0") +
           ", " +
           scenario_json("y", false, "\"min\": 1, \"max\": 1, \"model\": 1, \"rel_error\": 0")),
       f + ": key 'scenarios[1].figures[makespan].median': missing field"},
      {report_json(scenario_json("x", false,
                                 "\"median\": 1, \"min\": 1, \"max\": 1, \"model\": "
                                 "\"fast\", \"rel_error\": 0")),
       f + ": key 'scenarios[0].figures[makespan].model': expected a number"},
      {"{\"scenarios\": [{\"scenario\": \"x\", \"figures\": []}]}",
       f + ": key 'scenarios[0].held_back': missing field"},
      {"{\"scenarios\": [{\"scenario\": \"x\", \"held_back\": false, \"figures\": []}]}",
       f + ": key 'scenarios[0].figures[makespan]': no figure named makespan"},
  };
  for (const auto& c : cases) {
    std::ofstream(bad) << c.text;
    Result r = run_plot("errors " + report.string() + " " + f + " -o " + png.string());
    BOOST_TEST(r.rc == 2, c.text << ": " << r.err);
    BOOST_TEST(r.err.find(c.expect) != std::string::npos, c.expect << " not in: " << r.err);
    BOOST_TEST(!fs::exists(png));
  }
  Result r = run_plot("errors " + (dir / "missing.json").string() + " -o " + png.string());
  BOOST_TEST(r.rc == 2, r.err);
  BOOST_TEST(
      r.err.find((dir / "missing.json").string() + ": cannot open file") != std::string::npos,
      r.err);
  BOOST_TEST(!fs::exists(png));
  BOOST_TEST(leftovers(".tmp") + leftovers("prestage-") == 0);
}

BOOST_AUTO_TEST_SUITE_END()
