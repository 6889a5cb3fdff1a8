// The `prestage simulate` and `prestage sweep` commands as a user runs them: bad input exits 2
// with file:line and key on stderr and leaves no output behind; good input writes every file.
#include <sys/wait.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <sstream>

#include "model/run_output.hpp"
#include "tests/support/sim_support.hpp"

namespace fs = std::filesystem;
using namespace prestage;

namespace {
using Result = test::CliResult;
Result run_shell(const std::string& line) {
  return test::run_cli(line, "");
}
Result run(const std::string& args) {
  return run_shell(std::string(PRESTAGE_BIN) + " " + args);
}
// The same, run from `cwd` with extra environment (e.g. "HOME=...").
Result run_in(const fs::path& cwd, const std::string& args, const std::string& env = "") {
  return run_shell("cd '" + cwd.string() + "' && " + env + " " + std::string(PRESTAGE_BIN) + " " +
                   args);
}
std::string scenario_copy(const test::TempDir& d, const std::string& from, const std::string& to) {
  std::string text = test::read_text(test::kTinyScenario);
  text = test::replace_once(text, "calibration: calibration_synthetic.yaml",
                            "calibration: " + fs::absolute(test::kSyntheticCalibration).string());
  if (!from.empty()) text = test::replace_once(text, from, to);
  return d.file("s.yaml", text);
}
}  // namespace

BOOST_AUTO_TEST_SUITE(sim_cli)

// One CSV line's fields, a trailing empty field kept (RFC 4180 quotes: "" escapes, commas inside).
static std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted && ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      out.back() += '"';
      ++i;
    } else if (ch == '"') {
      quoted = !quoted;
    } else if (ch == ',' && !quoted) {
      out.emplace_back();
    } else {
      out.back() += ch;
    }
  }
  return out;
}

BOOST_AUTO_TEST_CASE(bad_scenario_exits_2_names_line_and_key_and_writes_nothing) {
  test::TempDir d("cli-bad");
  std::string s = scenario_copy(d, "proofs: 2}", "proofs: 2, prooofs: 3}");
  std::string out = (d.path / "out").string();
  Result r = run("simulate " + s + " -o " + out);
  BOOST_TEST(r.rc == 2);
  BOOST_TEST(r.out.find(s + ":5: key 'workload.prooofs'") != std::string::npos, r.out);
  BOOST_TEST(!fs::exists(out));
  BOOST_TEST(!fs::exists(out + ".tmp"));
}

BOOST_AUTO_TEST_CASE(bad_calibration_exits_2_naming_the_calibration_file) {
  test::TempDir d("cli-badcal");
  std::string cal = test::read_text(test::kSyntheticCalibration);
  cal = test::replace_once(cal, "    reuse_other_stream: {value: after_sync",
                           "    reuse_other_stream: {value: sometimes");
  std::string calpath = d.file("cal.yaml", cal);
  std::string text =
      test::replace_once(test::read_text(test::kTinyScenario),
                         "calibration: calibration_synthetic.yaml", "calibration: " + calpath);
  std::string s = d.file("s.yaml", text);
  std::string out = (d.path / "out").string();
  Result r = run("simulate " + s + " -o " + out);
  BOOST_TEST(r.rc == 2);
  std::string where = calpath + ":" + std::to_string(test::line_of(cal, "sometimes")) +
                      ": key 'device_memory.pool.reuse_other_stream.value'";
  BOOST_TEST(r.out.find(where) != std::string::npos, r.out);
  BOOST_TEST(!fs::exists(out));
}

BOOST_AUTO_TEST_CASE(undeclared_policy_parameter_exits_2_naming_file_line_and_key) {
  // System: the tiny scenario with policy naive but tiers' params (margin, trim, sync).
  // Expectation: exit 2, stderr names the file, the line of `params`, the key and naive's file;
  // nothing written. The same through --set on a valid file.
  test::TempDir d("cli-undeclared");
  std::string s = scenario_copy(d, "name: tiers", "name: naive");
  std::string out = (d.path / "out").string();
  Result r = run("simulate " + s + " -o " + out);
  BOOST_TEST(r.rc == 2);
  BOOST_TEST(r.out.find(s + ":10: key 'policy.params.margin'") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("model/policies/naive.cpp") != std::string::npos, r.out);
  BOOST_TEST(!fs::exists(out));
  std::string ok = scenario_copy(d, "", "");
  Result v = run("simulate " + ok + " -o " + out + " --set policy.params.budget=1GiB");
  BOOST_TEST(v.rc == 2);
  BOOST_TEST(v.out.find("key 'policy.params.budget'") != std::string::npos, v.out);
  BOOST_TEST(!fs::exists(out));
}

BOOST_AUTO_TEST_CASE(policies_lists_every_policy_with_its_parameters) {
  // System: `prestage policies` and `--json`. Expectation: exit 0; every built-in policy with its
  // file and doc; each with the inherited parameters, and tiers with its own (lock_aware, its
  // default false). Exact names.
  Result r = run("policies");
  BOOST_TEST(r.rc == 0, r.out);
  for (const char* n : {"baseline", "budget", "naive", "pinned", "tiers"})
    BOOST_TEST(
        ("\n" + r.out).find("\n" + std::string(n) + "  (model/policies/") != std::string::npos, n);
  Result j = run("policies --json");
  BOOST_TEST_REQUIRE(j.rc == 0, j.out);
  auto doc = nlohmann::json::parse(j.out);
  std::set<std::string> names;
  for (const auto& p : doc) {
    names.insert(p["name"].get<std::string>());
    BOOST_TEST(!p["doc"].get<std::string>().empty());
    std::set<std::string> params;
    for (const auto& q : p["params"]) {
      params.insert(q["name"].get<std::string>());
      BOOST_TEST(!q["doc"].get<std::string>().empty());
      if (p["name"] == "tiers" && q["name"] == "lock_aware")
        BOOST_TEST(q["default"].get<std::string>() == "false");
    }
    BOOST_TEST(params.count("release_threshold") == 1u);
    BOOST_TEST(params.count("pinning") == 1u);
    if (p["name"] == "tiers")
      BOOST_TEST((params == std::set<std::string>{"release_threshold", "pinning", "margin", "trim",
                                                  "sync", "tiers", "lock_aware"}));
  }
  BOOST_TEST((names == std::set<std::string>{"baseline", "budget", "naive", "pinned", "tiers"}));
}

BOOST_AUTO_TEST_CASE(good_run_writes_four_files_and_refuses_to_overwrite) {
  test::TempDir d("cli-good");
  std::string s = scenario_copy(d, "", "");
  std::string out = (d.path / "out").string();
  Result r = run("simulate " + s + " -o " + out + " -q");
  BOOST_TEST(r.rc == 0, r.out);
  for (const char* f : {"summary.json", "events.jsonl", "trace.json", "manifest.json"})
    BOOST_TEST(fs::exists(fs::path(out) / f), f);
  auto m = nlohmann::json::parse(test::read_text(out + "/manifest.json"));
  BOOST_TEST(m["seed"].get<int>() == 7);
  // The scenario file's SHA-256, as 64 hex digits, and the same by the library's own function.
  BOOST_TEST(m["scenario"]["sha256"].get<std::string>().size() == 64u);
  BOOST_TEST(m["scenario"]["sha256"].get<std::string>() == model::file_sha256(s));
  BOOST_TEST((model::same_file_as_recorded(m["scenario"], s) == true));
  BOOST_TEST(m["command_line"].get<std::string>().find("simulate") != std::string::npos);
  // The resolved policy parameters: the tiny scenario's (tiers: margin, trim, sync) and the
  // defaults of the rest, with units; release_threshold from the calibration.
  const auto& pp = m["policy_params"];
  BOOST_TEST(pp["margin"].get<std::string>() == "512 MiB");
  BOOST_TEST(pp["trim"].get<std::string>() == "before_check");
  BOOST_TEST(pp["sync"].get<std::string>() == "device");
  BOOST_TEST(pp["tiers"].get<std::string>() == "[both, a_only]");
  BOOST_TEST(pp["lock_aware"].get<std::string>() == "false");
  BOOST_TEST(pp["pinning"].get<std::string>() == "register_per_partition");
  BOOST_TEST(pp["release_threshold"].get<std::string>().find("calibration") != std::string::npos);
  BOOST_TEST(pp.size() == 7u);
  auto sum = nlohmann::json::parse(test::read_text(out + "/summary.json"));
  BOOST_TEST(sum["proofs_completed"].get<int>() == 2);
  nlohmann::json::parse(test::read_text(out + "/trace.json"));  // valid JSON
  Result again = run("simulate " + s + " -o " + out);
  BOOST_TEST(again.rc == 2);
  BOOST_TEST(again.out.find("exists") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(sweep_writes_one_row_per_point_and_rejects_bad_values) {
  test::TempDir d("cli-sweep");
  // A sweep over policy.name carries no policy.params: baseline and naive declare none of tiers'
  // (an undeclared parameter is an error). tiers' defaults are the tiny scenario's values.
  std::string s =
      scenario_copy(d, "\n  params: {margin: 512MiB, trim: before_check, sync: device}", "");
  std::string csv = (d.path / "out.csv").string();
  Result r = run(
      "sweep " + s +
      " --vary gpus.workers_per_gpu=1,2 --vary policy.name=baseline,naive,tiers -j 2 -o " + csv);
  BOOST_TEST(r.rc == 0, r.out);
  std::string text = test::read_text(csv);
  BOOST_TEST(std::count(text.begin(), text.end(), '\n') == 7);  // header + 2 x 3
  BOOST_TEST(text.rfind("gpus.workers_per_gpu,policy.name,proofs_completed", 0) == 0u);
  // The rows do not depend on the thread count.
  std::string csv1 = (d.path / "one.csv").string();
  Result r1 = run(
      "sweep " + s +
      " --vary gpus.workers_per_gpu=1,2 --vary policy.name=baseline,naive,tiers -j 1 -o " + csv1);
  BOOST_TEST(r1.rc == 0, r1.out);
  BOOST_TEST(test::read_text(csv1) == text);
  std::string bad = (d.path / "bad.csv").string();
  Result b = run("sweep " + s + " --vary policy.params.margin=1GiB,much -o " + bad);
  BOOST_TEST(b.rc == 2);
  BOOST_TEST(b.out.find("policy.params.margin") != std::string::npos, b.out);
  BOOST_TEST(!fs::exists(bad));
}

BOOST_AUTO_TEST_CASE(infeasible_buffer_exits_2_naming_file_line_key_and_sizes_writing_nothing) {
  // System: `prestage simulate` and `sweep` of the tiny scenario at log2_n 27 (d_a 4 GiB) on a
  // 4 GiB card (synthetic calibration: 0.5 GiB context overhead; the pipeline's resident NTT
  // tables n*329/20 = 2207881626 B; 1.44 GiB usable).
  // Expectation: exit 2 before simulating; stderr names the scenario file, the line and key of
  // gpus.vram, the buffer d_a and the sizes (4.00 GiB, 1.44 GiB usable); no output directory,
  // no CSV. A --set of the card size names that option, key and value; a sweep whose every
  // point is infeasible exits 2 likewise (one infeasible point among others: the next test).
  // Exact text.
  test::TempDir d("cli-infeasible");
  std::string s = scenario_copy(d, "log2_n: 20", "log2_n: 27");
  std::string text = test::read_text(s);
  text = test::replace_once(text, "vram: 16GiB", "vram: 4GiB");
  s = d.file("s.yaml", text);
  std::string out = (d.path / "out").string();
  Result r = run("simulate " + s + " -o " + out);
  BOOST_TEST(r.rc == 2, r.out);
  std::string where = s + ":" + std::to_string(test::line_of(text, "vram: 4GiB")) +
                      ": key 'gpus.vram': infeasible, not simulated: buffer 'd_a' of pipeline "
                      "<embedded supraseal_c2> (n*elem = 4.00 GiB (4294967296 B)";
  BOOST_TEST(r.out.find(where) != std::string::npos, r.out);
  BOOST_TEST(
      r.out.find("the prover's resident memory 2.06 GiB (2207881626 B)") != std::string::npos,
      r.out);
  BOOST_TEST(r.out.find("leaves 1.44 GiB (1550214758 B)") != std::string::npos, r.out);
  BOOST_TEST(!fs::exists(out));
  for (const auto& e : fs::directory_iterator(d.path))  // no staging directory left either
    BOOST_TEST(e.path().filename().string().find("out") != 0, e.path());
  std::string ok = scenario_copy(d, "log2_n: 20", "log2_n: 27");
  Result v = run("simulate " + ok + " -o " + out + " --set gpus.vram=4GiB");
  BOOST_TEST(v.rc == 2, v.out);
  BOOST_TEST(v.out.find("--set: key 'gpus.vram': value '4GiB': ") != std::string::npos, v.out);
  BOOST_TEST(!fs::exists(out));
  std::string csv = (d.path / "out.csv").string();
  Result w = run("sweep " + ok + " --vary gpus.vram=4GiB -o " + csv);  // every point infeasible
  BOOST_TEST(w.rc == 2, w.out);
  BOOST_TEST(w.out.find("--vary: every point is infeasible") != std::string::npos, w.out);
  BOOST_TEST(w.out.find("buffer 'd_a'") != std::string::npos, w.out);
  BOOST_TEST(!fs::exists(csv));
}

BOOST_AUTO_TEST_CASE(summary_and_csv_give_partitions_per_hour_and_the_scenarios_notes) {
  // System: `prestage simulate` of the tiny scenario with msm_h fixed under phases (--set), and
  // `prestage sweep` of it over workload.log2_n=18,20.
  // Expectation: summary.json's throughput_partitions_per_hour is partitions.done / makespan_s x
  // 3600 and its notes hold the one note on the fixed phase, which simulate also prints on
  // stderr (with -q); the sweep CSV ends with partitions_done and throughput_partitions_per_hour
  // (same formula per row), and the sweep prints the note once for both points.
  // Tolerance: relative 1e-12 (the CSV prints shortest round-trip decimals).
  test::TempDir d("cli-notes");
  std::string s = scenario_copy(d, "", "");
  std::string out = (d.path / "out").string();
  Result r = run("simulate " + s + " -o " + out + " -q --set phases.msm_h=1.5");
  BOOST_TEST_REQUIRE(r.rc == 0, r.out);
  BOOST_TEST(r.out.find("note: " + s +
                        ": phases fixed by the scenario: msm_h (1.5 s, not the "
                        "calibration's curve msm_g1)") != std::string::npos,
             r.out);
  auto sum = nlohmann::json::parse(test::read_text(out + "/summary.json"));
  BOOST_TEST_REQUIRE(sum["notes"].size() == 1u);
  BOOST_TEST(sum["notes"][0].get<std::string>().find("msm_h (1.5 s") != std::string::npos);
  double pph = sum["partitions"]["done"].get<double>() / sum["makespan_s"].get<double>() * 3600;
  BOOST_TEST(pph > 0);
  BOOST_TEST(sum["throughput_partitions_per_hour"].get<double>() == pph,
             boost::test_tools::tolerance(1e-12));
  std::string csv = (d.path / "n.csv").string();
  Result w = run("sweep " + s + " --vary workload.log2_n=18,20 --vary phases.msm_h=1.5 -o " + csv);
  BOOST_TEST_REQUIRE(w.rc == 0, w.out);
  BOOST_TEST(
      w.out.find("note: 2 of 2 points: phases fixed by the scenario: msm_h") != std::string::npos,
      w.out);
  std::istringstream in(test::read_text(csv));
  std::string line;
  std::getline(in, line);
  BOOST_TEST(line.ends_with("partitions_done,throughput_partitions_per_hour,infeasible"), line);
  int rows = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> c = split_csv_line(line);
    BOOST_TEST_REQUIRE(c.size() == 17u, line);  // 2 vary keys + 15 columns (first_oom_where "")
    double makespan = std::stod(c[3]), done = std::stod(c[14]);
    BOOST_TEST(std::stod(c[15]) == done / makespan * 3600, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(c[16].empty());  // feasible
    ++rows;
  }
  BOOST_TEST(rows == 2);
}

BOOST_AUTO_TEST_CASE(sweep_marks_an_infeasible_point_and_runs_the_others) {
  // System: `prestage sweep` of the tiny scenario at log2_n 27 (d_a 4 GiB; synthetic
  // calibration: 0.5 GiB context) over gpus.vram = 16GiB, 12GiB, 4GiB: at 4 GiB d_a does not fit.
  // Expectation: exit 0; the 4 GiB row's `infeasible` column says why ("infeasible, not
  // simulated: buffer ...", naming gpus.vram) and its 14 summary columns are empty (never
  // zeros); the other rows are simulated (makespan > 0, `infeasible` empty); stderr notes 1 of 3
  // points infeasible. Tolerance: exact.
  test::TempDir d("cli-sweep-infeasible");
  std::string s = scenario_copy(d, "log2_n: 20", "log2_n: 27");
  std::string csv = (d.path / "v.csv").string();
  Result w = run("sweep " + s + " --vary gpus.vram=16GiB,12GiB,4GiB -o " + csv);
  BOOST_TEST_REQUIRE(w.rc == 0, w.out);
  BOOST_TEST(w.out.find("note: 1 of 3 points infeasible, not simulated") != std::string::npos,
             w.out);
  std::istringstream in(test::read_text(csv));
  std::string line;
  std::getline(in, line);
  std::map<std::string, std::vector<std::string>> row;
  while (std::getline(in, line)) {
    auto c = split_csv_line(line);
    BOOST_TEST_REQUIRE(c.size() == 16u, line);  // 1 vary key + 15 columns
    row[c[0]] = c;
  }
  BOOST_TEST_REQUIRE(row.size() == 3u);
  for (const char* ok : {"16GiB", "12GiB"}) {
    BOOST_TEST(row[ok][15].empty(), ok);
    BOOST_TEST(std::stod(row[ok][2]) > 0.0, ok);
  }
  const auto& bad = row["4GiB"];
  BOOST_TEST(bad[15].find("infeasible, not simulated: buffer") != std::string::npos, bad[15]);
  BOOST_TEST(bad[15].find("gpus.vram") != std::string::npos, bad[15]);
  for (int k = 1; k <= 14; ++k) BOOST_TEST(bad[static_cast<std::size_t>(k)].empty(), k);
}

BOOST_AUTO_TEST_CASE(duplicate_key_exits_2_naming_file_line_and_key) {
  // System: the tiny scenario with `proofs` given twice in its workload map. Expectation: exit
  // 2, "FILE:5: key 'workload.proofs': duplicate key" on stderr, nothing written.
  test::TempDir d("cli-dup");
  std::string s = scenario_copy(d, "proofs: 2}", "proofs: 2, proofs: 3}");
  std::string out = (d.path / "out").string();
  Result r = run("simulate " + s + " -o " + out);
  BOOST_TEST(r.rc == 2);
  BOOST_TEST(r.out.find(s + ":5: key 'workload.proofs'") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("duplicate key") != std::string::npos, r.out);
  BOOST_TEST(!fs::exists(out));
}

BOOST_AUTO_TEST_CASE(compare_counts_each_kernel_once_as_summary_json_does) {
  // System: `prestage compare` of the tiny run's events.jsonl with itself. Expectation: for every
  // phase of summary.json, count_a == count_b == the phase's count (each kernel once, not once
  // on gpu0/compute and again on the worker's host track). Exact.
  test::TempDir d("cli-cmp");
  std::string s = scenario_copy(d, "", "");
  std::string out = (d.path / "out").string();
  Result r = run("simulate " + s + " -o " + out + " -q");
  BOOST_TEST_REQUIRE(r.rc == 0, r.out);
  std::string json = (d.path / "cmp.json").string();
  std::string ev = out + "/events.jsonl";
  Result c = run("compare " + ev + " " + ev + " -o " + json);
  BOOST_TEST_REQUIRE(c.rc == 0, c.out);
  auto cmp = nlohmann::json::parse(test::read_text(json));
  auto sum = nlohmann::json::parse(test::read_text(out + "/summary.json"));
  BOOST_TEST(!sum["phases"].empty());
  for (const auto& [name, ph] : sum["phases"].items()) {
    BOOST_TEST_CONTEXT("phase " << name) {
      BOOST_TEST_REQUIRE(cmp["by_name"].contains(name));
      BOOST_TEST(cmp["by_name"][name]["count_a"].get<std::int64_t>() ==
                 ph["count"].get<std::int64_t>());
      BOOST_TEST(cmp["by_name"][name]["count_b"].get<std::int64_t>() ==
                 ph["count"].get<std::int64_t>());
    }
  }
  BOOST_TEST(cmp["host_mirrors_left_out_a"].get<std::int64_t>() > 0);
}

BOOST_AUTO_TEST_CASE(simulate_set_overrides_one_point_and_records_it) {
  // System: `simulate --set` on the tiny scenario (2 proofs, 2 workers, tiers). Expectation: the
  // overrides apply (1 proof, 1 worker; a flow map value with commas is one value), the
  // manifest's command_line records them; a bad value exits 2 naming --set and the key, a
  // malformed spec exits 2, and neither writes anything. Exact.
  test::TempDir d("cli-set");
  std::string s = scenario_copy(d, "", "");
  std::string out = (d.path / "out").string();
  Result r = run("simulate " + s + " -o " + out +
                 " -q --set workload.proofs=1 --set gpus.workers_per_gpu=1"
                 " --set 'policy.params={margin: 1GiB, trim: never, sync: stream}'");
  BOOST_TEST_REQUIRE(r.rc == 0, r.out);
  auto sum = nlohmann::json::parse(test::read_text(out + "/summary.json"));
  BOOST_TEST(sum["proofs_requested"].get<int>() == 1);
  BOOST_TEST(sum["proofs_completed"].get<int>() == 1);
  BOOST_TEST(sum["workload"]["workers_per_gpu"].get<int>() == 1);
  auto m = nlohmann::json::parse(test::read_text(out + "/manifest.json"));
  const std::string cl = m["command_line"].get<std::string>();
  BOOST_TEST(
      cl.find(" --set workload.proofs=1 --set gpus.workers_per_gpu=1 --set "
              "'policy.params={margin: 1GiB, trim: never, sync: stream}'") != std::string::npos,
      cl);
  // Without --set: the file's values (2 proofs).
  std::string plain = (d.path / "plain").string();
  BOOST_TEST_REQUIRE(run("simulate " + s + " -o " + plain + " -q").rc == 0);
  auto sum2 = nlohmann::json::parse(test::read_text(plain + "/summary.json"));
  BOOST_TEST(sum2["proofs_requested"].get<int>() == 2);
  // Bad value, unknown key, malformed spec.
  std::string bad = (d.path / "bad").string();
  Result b = run("simulate " + s + " -o " + bad + " --set gpus.workers_per_gpu=zero");
  BOOST_TEST(b.rc == 2);
  BOOST_TEST(b.out.find("--set: key 'gpus.workers_per_gpu'") != std::string::npos, b.out);
  BOOST_TEST(b.out.find("zero") != std::string::npos, b.out);
  Result u = run("simulate " + s + " -o " + bad + " --set gpus.vramm=1GiB");
  BOOST_TEST(u.rc == 2);
  BOOST_TEST(u.out.find("gpus.vramm") != std::string::npos, u.out);
  Result f = run("simulate " + s + " -o " + bad + " --set workload.proofs");
  BOOST_TEST(f.rc == 2);
  BOOST_TEST(f.out.find("key=value") != std::string::npos, f.out);
  BOOST_TEST(!fs::exists(bad));
}

// Issue 16: --force replaces only a directory prestage wrote; refusals exit 2 and leave every file
// of the user's (the files of a temporary directory, compared before and after) and no temporary.
namespace {
// Every path under root with each regular file's content.
std::set<std::string> snapshot(const fs::path& root) {
  std::set<std::string> s;
  for (const auto& e : fs::recursive_directory_iterator(root))
    s.insert(fs::relative(e.path(), root).string() +
             (e.is_regular_file() ? "=" + test::read_text(e.path().string()) : "/"));
  return s;
}
// A user's files: notes.txt, mine/data.csv, out.tmp (a name the old code removed).
void user_files(const test::TempDir& d) {
  d.file("notes.txt", "mine\n");
  d.file("out.tmp", "also mine\n");
  fs::create_directories(d.path / "mine");
  d.file("mine/data.csv", "a,b\n1,2\n");
}
}  // namespace

BOOST_AUTO_TEST_CASE(simulate_force_refuses_the_working_directory_and_its_parents) {
  test::TempDir d("cli-force-cwd");
  std::string s = scenario_copy(d, "", "");
  user_files(d);
  fs::create_directories(d.path / "sub");
  // Both look like prestage outputs: only their place protects them.
  d.file("manifest.json", "{\"prestage_output\": 1}\n");
  d.file("sub/manifest.json", "{\"prestage_output\": 1}\n");
  const auto before = snapshot(d.path);
  for (const char* o : {".", "./", "..", "../", "../sub/..", "$PWD"}) {
    Result r = run_in(d.path / "sub", "simulate " + s + " -o " + o + " --force -q");
    BOOST_TEST(r.rc == 2, o << ": " << r.out);
    BOOST_TEST(r.out.find("refusing to replace") != std::string::npos, r.out);
  }
  Result root = run("simulate " + s + " -o / --force -q");
  BOOST_TEST(root.rc == 2, root.out);
  BOOST_TEST(snapshot(d.path) == before);
}

BOOST_AUTO_TEST_CASE(simulate_force_refuses_home_and_a_directory_prestage_did_not_write) {
  test::TempDir d("cli-force-user");
  std::string s = scenario_copy(d, "", "");
  user_files(d);
  const auto before = snapshot(d.path);
  for (const std::string o : {"mine", "mine/", "mine/../mine", "notes.txt"}) {
    Result r = run_in(d.path, "simulate " + s + " -o " + o + " --force -q");
    BOOST_TEST(r.rc == 2, o << ": " << r.out);
  }
  // The home directory, even when it looks like a prestage output.
  d.file("mine/manifest.json", "{\"prestage_output\": 1}\n");
  const auto before_home = snapshot(d.path);
  Result h = run_in(d.path, "simulate " + s + " -o " + (d.path / "mine").string() + " --force -q",
                    "HOME='" + (d.path / "mine").string() + "'");
  BOOST_TEST(h.rc == 2, h.out);
  BOOST_TEST(snapshot(d.path) == before_home);
  fs::remove(d.path / "mine/manifest.json");
  BOOST_TEST(snapshot(d.path) == before);
}

BOOST_AUTO_TEST_CASE(simulate_force_replaces_its_own_output_and_nothing_else) {
  test::TempDir d("cli-force-own");
  std::string s = scenario_copy(d, "", "");
  user_files(d);
  Result r = run_in(d.path, "simulate " + s + " -o out/ -q");  // trailing slash: out itself
  BOOST_TEST(r.rc == 0, r.out);
  auto m = nlohmann::json::parse(test::read_text((d.path / "out/manifest.json").string()));
  BOOST_TEST(m["prestage_output"].get<int>() == 1);
  BOOST_TEST(m["tool"].get<std::string>() == "prestage simulate");
  const auto before = snapshot(d.path);
  Result again = run_in(d.path, "simulate " + s + " -o out/ --force -q");
  BOOST_TEST(again.rc == 0, again.out);
  auto after = snapshot(d.path);
  // The same files (the manifest's command line differs by --force), the user's untouched.
  std::set<std::string> names_before, names_after;
  for (const auto& e : before) names_before.insert(e.substr(0, e.find('=')));
  for (const auto& e : after) names_after.insert(e.substr(0, e.find('=')));
  BOOST_TEST(names_before == names_after);
  BOOST_TEST(test::read_text((d.path / "out.tmp").string()) == "also mine\n");
  BOOST_TEST(test::read_text((d.path / "mine/data.csv").string()) == "a,b\n1,2\n");
  // A file of the user's inside the output: then prestage no longer replaces it.
  d.file("out/my_notes.txt", "mine");
  Result held = run_in(d.path, "simulate " + s + " -o out --force -q");
  BOOST_TEST(held.rc == 2, held.out);
  BOOST_TEST(held.out.find("my_notes.txt") != std::string::npos, held.out);
  BOOST_TEST(fs::exists(d.path / "out/my_notes.txt"));
}

BOOST_AUTO_TEST_CASE(sweep_refuses_to_replace_a_csv_without_force_and_a_directory_ever) {
  test::TempDir d("cli-sweep-force");
  std::string s = scenario_copy(d, "", "");
  user_files(d);
  const std::string vary = " --vary gpus.workers_per_gpu=1,2 -o ";
  const auto before = snapshot(d.path);
  Result r = run_in(d.path, "sweep " + s + vary + "mine/data.csv");
  BOOST_TEST(r.rc == 2, r.out);
  BOOST_TEST(r.out.find("exists") != std::string::npos, r.out);
  for (const std::string o : {"mine", "mine/", ".", "new.csv/"}) {
    for (const char* f : {"", " --force"}) {
      Result x = run_in(d.path, "sweep " + s + vary + o + f);
      BOOST_TEST(x.rc == 2, o << f << ": " << x.out);
    }
  }
  BOOST_TEST(snapshot(d.path) == before);  // nothing replaced, no temporary (mine.tmp) left
  Result f = run_in(d.path, "sweep " + s + vary + "mine/data.csv --force");
  BOOST_TEST(f.rc == 0, f.out);
  BOOST_TEST(test::read_text((d.path / "mine/data.csv").string())
                 .rfind("gpus.workers_per_gpu,proofs_completed", 0) == 0u);
  BOOST_TEST(test::read_text((d.path / "notes.txt").string()) == "mine\n");
  BOOST_TEST(test::read_text((d.path / "out.tmp").string()) == "also mine\n");
  BOOST_TEST(snapshot(d.path).size() == before.size());  // no temporary left
}

BOOST_AUTO_TEST_SUITE_END()
