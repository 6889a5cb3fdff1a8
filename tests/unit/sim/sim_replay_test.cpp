// Replay (sim/replay.hpp): recorded runs' step times in the model under another scenario.
// The "recorded" runs here are simulator runs written as a measured run would be (tool
// `prestage run --gpu`), so that what replay must recover is known exactly.
#include <fmt/core.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "model/errors.hpp"
#include "model/run_output.hpp"
#include "model/scenario.hpp"
#include "sim/replay.hpp"
#include "sim/runner.hpp"
#include "tests/support/sim_support.hpp"

using namespace prestage;
namespace fs = std::filesystem;

namespace {

// The tiny scenario with one worker and resident key points (each MSM's time is its kernel's,
// with no streamed points), written to `dir` with an absolute calibration path.
std::string one_worker_scenario(const test::TempDir& dir) {
  std::string text = test::read_text(test::kTinyScenario);
  text = test::replace_once(text, "calibration: calibration_synthetic.yaml",
                            "calibration: " + fs::absolute(test::kSyntheticCalibration).string());
  text = test::replace_once(text, "workers_per_gpu: 2", "workers_per_gpu: 1");
  text = test::replace_once(text, "proofs: 2}", "proofs: 2, key_points: resident}");
  return dir.file("one_worker.yaml", text);
}

// Simulates `file` with `overrides` and writes it as a measured run into dir/name.
std::string record(const test::TempDir& dir, const std::string& name, const std::string& file,
                   const model::Overrides& overrides) {
  model::Scenario s = model::load_scenario(file, overrides);
  s.file = file;  // the manifest names the file, as a GPU run of it would
  const auto r = sim::run_scenario(s, true);
  const std::string out = (dir.path / name).string();
  model::write_run(out, s, r, "test", false, "prestage run --gpu");
  return out;
}

double step_seconds(const model::Scenario& s, const std::string& step) {
  for (std::size_t i = 0; i < s.pipe.steps.size(); ++i)
    if (s.pipe.steps[i].name == step) return s.step_seconds[i];
  throw std::runtime_error("no step " + step);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sim_replay)

BOOST_AUTO_TEST_CASE(a_run_replayed_under_its_own_scenario_reproduces_it) {
  // System: the one-worker tiny scenario, simulated and recorded as a measured run, then
  // replayed under the same scenario.
  // Expectation: every event's factor is 1 and the replay's makespan is the model's.
  // Tolerance: exact (the same numbers pass through the same model).
  test::TempDir dir("replay-self");
  const std::string file = one_worker_scenario(dir);
  const std::string run = record(dir, "r1", file, {});
  const sim::Replay rp = sim::measure_replay({run}, {});
  BOOST_TEST(rp.runs.size() == 1u);
  BOOST_TEST(rp.steps.count("msm_h") == 1u);
  BOOST_TEST(rp.steps.count("host_register") == 1u);
  for (const auto& [name, f] : rp.steps) BOOST_TEST(f.factor == 1.0, name);
  model::Scenario s = model::load_scenario(file);
  const double plain = sim::run_scenario(s, false).summary.makespan_s;
  sim::apply_replay(s, rp);
  BOOST_TEST(sim::run_scenario(s, false).summary.makespan_s == plain);
}

BOOST_AUTO_TEST_CASE(a_slower_kernel_in_the_recording_is_replayed_under_another_scenario) {
  // System: a recording in which msm_h took 2x the model's time (the scenario file's model with
  // phases.msm_h doubled), replayed under two workers per GPU.
  // Expectation: msm_h's factor is 2, every other factor 1; the replay equals the model of the
  // two-worker scenario with msm_h doubled. Tolerance: 1e-9 relative (a duration is the
  // difference of two times since the run's start: rounding of ~1e-12 relative on a 5 us event).
  test::TempDir dir("replay-slow");
  const std::string file = one_worker_scenario(dir);
  const double msm_h = step_seconds(model::load_scenario(file), "msm_h");
  const std::string doubled = fmt::format("{:.17g}", 2 * msm_h);
  const std::string run = record(dir, "r1", file, {{"phases.msm_h", doubled}});
  const sim::Replay rp = sim::measure_replay({run}, {});
  for (const auto& [name, f] : rp.steps) {
    const double want = name == "msm_h" ? 2.0 : 1.0;
    BOOST_TEST(std::abs(f.factor - want) <= 1e-9 * want,
               name << " " << fmt::format("{:.17g}", f.factor));
  }
  model::Scenario replayed = model::load_scenario(file, {{"gpus.workers_per_gpu", "2"}});
  sim::apply_replay(replayed, rp);
  const auto expect =
      model::load_scenario(file, {{"gpus.workers_per_gpu", "2"}, {"phases.msm_h", doubled}});
  const double got = sim::run_scenario(replayed, false).summary.makespan_s;
  const double want = sim::run_scenario(expect, false).summary.makespan_s;
  BOOST_TEST(std::abs(got - want) <= 1e-9 * want, fmt::format("{:.17g} vs {:.17g}", got, want));
  // The replayed scenario says so in its notes (summary.json `notes`).
  BOOST_TEST(!replayed.notes.empty());
  BOOST_TEST(replayed.notes.back().rfind("replay: ", 0) == 0u);
}

BOOST_AUTO_TEST_CASE(a_staged_upload_takes_the_in_lock_uploads_factor_when_none_was_recorded) {
  // System: apply_replay of factors recorded by a policy that stages nothing (upload_a, no
  // stage_upload_a) and of one that stages (stage_upload_b, no upload_b) to the tiny scenario.
  // Expectation: stage_upload_a takes upload_a's factor, upload_b takes stage_upload_b's (the
  // same copy on another stream); the note says so; a name in neither keeps 1 and is listed.
  // Tolerance: exact.
  model::Scenario s = model::load_scenario(test::kTinyScenario);
  sim::Replay r;
  r.runs = {"recorded"};
  r.steps["upload_a"].factor = 1.5;
  r.steps["stage_upload_b"].factor = 0.75;
  const auto missing = sim::apply_replay(s, r);
  BOOST_TEST(s.step_time_scale.at("stage_upload_a") == 1.5);
  BOOST_TEST(s.step_time_scale.at("upload_b") == 0.75);
  BOOST_TEST(s.step_time_scale.count("msm_h") == 0u);
  BOOST_TEST((std::find(missing.begin(), missing.end(), "msm_h") != missing.end()));
  BOOST_TEST((std::find(missing.begin(), missing.end(), "stage_upload_a") == missing.end()));
  BOOST_TEST(s.notes.back().find("stage_upload_a from upload_a") != std::string::npos,
             s.notes.back());
}

BOOST_AUTO_TEST_CASE(replay_refuses_what_is_not_a_measured_run) {
  // System: measure_replay on a simulator's output directory, on a missing directory and on no
  // runs. Expectation: InputError naming the manifest and its key `tool`; the missing
  // manifest.json; the option. Tolerance: exact key, substring of the message.
  test::TempDir dir("replay-bad");
  const std::string file = one_worker_scenario(dir);
  model::Scenario s = model::load_scenario(file);
  const std::string simulated = (dir.path / "simulated").string();
  model::write_run(simulated, s, sim::run_scenario(s, true), "test", false);
  try {
    sim::measure_replay({simulated}, {});
    BOOST_FAIL("a simulated run was accepted");
  } catch (const InputError& e) {
    BOOST_TEST(e.key() == "tool");
    BOOST_TEST(e.file() == (fs::path(simulated) / "manifest.json").string());
  }
  try {
    sim::measure_replay({(dir.path / "nothing").string()}, {});
    BOOST_FAIL("a missing run was accepted");
  } catch (const InputError& e) {
    BOOST_TEST(std::string(e.what()).find("manifest.json") != std::string::npos, e.what());
  }
  BOOST_CHECK_THROW(sim::measure_replay({}, {}), InputError);
}

BOOST_AUTO_TEST_CASE(the_cli_writes_a_run_with_its_replay_and_refuses_bad_input) {
  // System: `prestage replay RUN_FOLDER --set gpus.workers_per_gpu=2 -o DIR`, then bad input
  // (a folder with no recorded run).
  // Expectation: exit 0; DIR holds the four files; manifest.json names the tool, the recorded
  // run and msm_h's factor 1; bad input exits 2 naming the folder, and writes nothing.
  // Tolerance: exact.
  test::TempDir dir("replay-cli");
  const std::string file = one_worker_scenario(dir);
  record(dir, "runs/r1", file, {});
  const std::string out = (dir.path / "out").string();
  auto r = test::run_cli(PRESTAGE_BIN, "replay " + (dir.path / "runs").string() +
                                           " --set gpus.workers_per_gpu=2 -q -o " + out);
  BOOST_TEST_REQUIRE(r.rc == 0, r.out);
  for (const char* f : {"summary.json", "events.jsonl", "trace.json", "manifest.json"})
    BOOST_TEST(fs::exists(fs::path(out) / f), f);
  const auto m = nlohmann::json::parse(test::read_text(out + "/manifest.json"));
  BOOST_TEST(m["tool"].get<std::string>() == "prestage replay");
  BOOST_TEST(m["replay"]["runs"].size() == 1u);
  BOOST_TEST(m["replay"]["steps"]["msm_h"]["factor"].get<double>() == 1.0);
  fs::create_directories(dir.path / "empty");
  const std::string bad_out = (dir.path / "bad_out").string();
  r = test::run_cli(PRESTAGE_BIN, "replay " + (dir.path / "empty").string() + " -o " + bad_out);
  BOOST_TEST(r.rc == 2, r.out);
  BOOST_TEST(r.out.find((dir.path / "empty").string()) != std::string::npos, r.out);
  BOOST_TEST(!fs::exists(bad_out));
}

BOOST_AUTO_TEST_CASE(validate_replays_each_scenario_from_the_other_scenarios_runs_only) {
  // System: `prestage validate --from RUNS --replay-from RUNS` over recorded runs of two
  // scenarios (one and two workers), one of them held back.
  // Expectation: exit 0; report.json names --replay-from; the development scenario is replayed
  // from the other scenario's run only, never its own; the held-back scenario's runs are never a
  // source, so the development one has none and is listed as skipped. Tolerance: exact.
  test::TempDir dir("replay-validate");
  const std::string one = one_worker_scenario(dir);
  std::string text = test::read_text(one);
  const std::string a = dir.file("a.yaml", test::replace_once(text, "name: tiny", "name: rp_a"));
  const std::string b =
      dir.file("b.yaml", test::replace_once(test::replace_once(text, "name: tiny", "name: rp_b"),
                                            "workers_per_gpu: 1", "workers_per_gpu: 2"));
  record(dir, "runs/rp_a__real__r1", a, {});
  record(dir, "runs/rp_b__real__r1", b, {});
  const std::string runs = (dir.path / "runs").string();
  const std::string out = (dir.path / "val").string();
  auto r = test::run_cli(PRESTAGE_BIN,
                         "validate --from " + runs + " --replay-from " + runs + " -o " + out);
  BOOST_TEST_REQUIRE(r.rc == 0, r.out);
  auto rep = nlohmann::json::parse(test::read_text(out + "/report.json"));
  BOOST_TEST(rep["replay_from"].get<std::string>() == runs);
  BOOST_TEST_REQUIRE(rep["sources"].size() == 2u);
  for (const auto& src : rep["sources"]) {
    const std::string me = src["scenario"].get<std::string>();
    const std::string other = me == "rp_a" ? "rp_b" : "rp_a";
    BOOST_TEST_REQUIRE(src.contains("replay"), me);
    BOOST_TEST(src["replay"]["scenarios"].size() == 1u, me);
    BOOST_TEST(src["replay"]["scenarios"][0].get<std::string>() == other, me);
  }
  // rp_b held back: rp_a has no source left and is skipped; rp_b still replays from rp_a.
  const std::string out2 = (dir.path / "val2").string();
  r = test::run_cli(PRESTAGE_BIN, "validate --from " + runs + " --replay-from " + runs +
                                      " --holdout rp_b -o " + out2);
  BOOST_TEST_REQUIRE(r.rc == 0, r.out);
  rep = nlohmann::json::parse(test::read_text(out2 + "/report.json"));
  BOOST_TEST_REQUIRE(rep["replay_skipped"].size() == 1u);
  BOOST_TEST(rep["replay_skipped"][0]["scenario"].get<std::string>() == "rp_a");
  BOOST_TEST_REQUIRE(rep["sources"].size() == 1u);
  BOOST_TEST(rep["sources"][0]["scenario"].get<std::string>() == "rp_b");
}

BOOST_AUTO_TEST_SUITE_END()
