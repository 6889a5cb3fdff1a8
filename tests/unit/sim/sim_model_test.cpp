// Unit tests of the model layer used by the simulator: calibration loading (values, units,
// curves, bad input), the pipeline as data, the staging policies, scenarios and trace writers.
#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "model/calibration.hpp"
#include "model/errors.hpp"
#include "model/pipeline.hpp"
#include "model/policy/policy.hpp"
#include "model/scenario.hpp"
#include "model/trace.hpp"
#include "model/trace_compare.hpp"
#include "model/yaml_input.hpp"
#include "sim/runner.hpp"
#include "tests/support/sim_support.hpp"

using namespace prestage;
using model::kGiB;
constexpr std::uint64_t MiB = 1ull << 20, GiB = 1ull << 30;

BOOST_AUTO_TEST_SUITE(sim_calibration)

BOOST_AUTO_TEST_CASE(loads_values_in_si_units) {
  auto c = model::load_calibration(test::kSyntheticCalibration);
  BOOST_TEST(c.total_memory == 141 * kGiB);
  BOOST_TEST(c.h2d.pinned_latency_s == 10e-6, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(c.sync_granularity == 2.0 * MiB);
  BOOST_TEST(c.sync_malloc.per_gib_s == 1e-3, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(c.stream_synchronize.per_gib_s == 0.0);  // per_gib omitted
  BOOST_TEST((c.h2d.sharing == model::LinkSharing::shared));
  BOOST_TEST(c.d2h.aggregate == 60e9);
  BOOST_TEST((c.reuse_other_stream == model::ReuseRule::after_sync));
  BOOST_TEST(c.releases_on("device_sync"));
  BOOST_TEST(!c.releases_on("nothing"));
  BOOST_TEST(c.synchronizes_device("cudaFree"));
  BOOST_TEST(!c.synchronizes_device("cudaMalloc"));
}

// The fixture with every optional key the probe writes (data/calibration/SCHEMA.md).
std::string with_probe_keys() {
  std::string t = test::read_text(test::kSyntheticCalibration);
  t = test::replace_once(
      t,
      "      blocks_host_thread: {value: true, unit: bool, source: \"synthetic: test fixture\"}\n  "
      "d2h:",
      "      blocks_host_thread: {value: true, unit: bool, source: \"synthetic: test fixture\"}\n"
      "      waits_for_stream: {value: true, unit: bool, source: \"synthetic\"}\n  d2h:");
  t = test::replace_once(
      t, "    bidirectional_aggregate:",
      "    same_direction_d2h: {value: queued, unit: enum, source: \"synthetic\"}\n"
      "    same_direction_d2h_aggregate: {value: 40, unit: \"GB/s\", source: \"synthetic\"}\n"
      "    bidirectional_aggregate:");
  t = test::replace_once(
      t, "    malloc_async:",
      "    minimum_reservation: {value: 64, unit: MiB, source: \"synthetic\"}\n"
      "    malloc_async_warm: {fixed: {value: 1, unit: us, source: \"synthetic\"}}\n"
      "    release_at_sync: {fixed: {value: 3, unit: us, source: \"s\"}, per_gib: {value: 1, unit: "
      "\"ms/GiB\", source: \"s\"}}\n"
      "    release_keeps_threshold: {value: false, unit: bool, source: \"synthetic\"}\n"
      "    cudamalloc_reclaims_pending_frees: {value: false, unit: bool, source: \"synthetic\"}\n"
      "    largest_allocation: {value: 1, unit: GiB, source: \"synthetic\"}\n"
      "    malloc_async:");
  t = test::replace_once(t, "value: [stream_sync, event_sync, device_sync]",
                         "value: [nothing, mem_get_info]");
  t = test::replace_once(t, "reuse_other_stream: {value: after_sync",
                         "reuse_other_stream: {value: after_free_completes");
  t = test::replace_once(
      t, "  calls_that_synchronize_device:",
      "  device_synchronize: {fixed: {value: 7, unit: us, source: \"synthetic\"}}\n"
      "  calls_that_do_not_synchronize_device: {value: [cudaMalloc], unit: list, source: \"s\"}\n"
      "  calls_that_synchronize_device:");
  return t;
}

BOOST_AUTO_TEST_CASE(loads_every_optional_key_the_probe_writes) {
  test::TempDir d("calkeys");
  auto c = model::load_calibration(d.file("c.yaml", with_probe_keys()));
  BOOST_TEST(c.h2d.pageable_waits_for_stream);
  BOOST_TEST((c.h2d.sharing == model::LinkSharing::shared));
  BOOST_TEST((c.d2h.sharing == model::LinkSharing::queued));
  BOOST_TEST(c.d2h.aggregate == 40e9);
  BOOST_TEST(c.h2d.aggregate == 60e9);
  BOOST_TEST(c.pool_minimum_reservation == 64.0 * MiB);
  BOOST_TEST(c.has_pool_malloc_warm);
  BOOST_TEST(c.pool_release_at_sync.per_gib_s == 1e-3, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(!c.release_keeps_threshold);
  BOOST_TEST(c.pool_largest_allocation == kGiB);
  BOOST_TEST(c.releases_on("nothing"));
  BOOST_TEST((c.reuse_other_stream == model::ReuseRule::after_free_completes));
  BOOST_TEST(c.device_synchronize.fixed_s == 7e-6, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(curves_interpolate_linearly_in_log2_size) {
  // System: pinned h2d points 2^20 B -> 40 GB/s, 2^26 B -> 50 GB/s. Expectation: at 2^23 B
  // (half way in log2) 45 GB/s; beyond the last point the bandwidth holds (50 GB/s).
  // Kernel curve msm_g1: 2^24 -> 150 ms, 2^26 -> 560 ms: at 2^25 355 ms; at 2^27 (beyond) the
  // time scales with n: 1.12 s. Tolerance 1e-9 relative.
  auto c = model::load_calibration(test::kSyntheticCalibration);
  BOOST_TEST(c.pcie_bandwidth(true, true, 8.0 * MiB) == 45e9, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(c.pcie_bandwidth(true, true, 8.0 * GiB) == 50e9, boost::test_tools::tolerance(1e-9));
  const auto& msm = c.kernels.at("msm_g1");
  BOOST_TEST(msm.at(std::exp2(25)) == 0.355, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(msm.at(std::exp2(27)) == 1.12, boost::test_tools::tolerance(1e-9));
}

// Loads a modified copy of the fixture; returns the error (fails the test if none).
static InputError load_bad(const std::string& text) {
  test::TempDir d("cal");
  std::string path = d.file("bad.yaml", text);
  try {
    model::load_calibration(path);
  } catch (const InputError& e) {
    BOOST_TEST(e.file() == path);
    return e;
  }
  BOOST_FAIL("expected an InputError");
  throw;
}

BOOST_AUTO_TEST_CASE(unknown_key_names_file_line_and_key) {
  std::string text = test::read_text(test::kSyntheticCalibration);
  text = test::replace_once(text, "  sync_allocator:\n", "  sync_allocator:\n    bogus_key: 1\n");
  auto e = load_bad(text);
  BOOST_TEST(e.key() == "device_memory.sync_allocator.bogus_key");
  BOOST_TEST(e.line() == test::line_of(text, "bogus_key"));
  BOOST_TEST(std::string(e.what()).find("unknown key") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(missing_source_is_an_error) {
  std::string text = test::read_text(test::kSyntheticCalibration);
  text = test::replace_once(
      text, "largest_allocation: {value: 140, unit: GiB, source: \"synthetic: test fixture\"}",
      "largest_allocation: {value: 140, unit: GiB}");
  auto e = load_bad(text);
  BOOST_TEST(e.key() == "device_memory.sync_allocator.largest_allocation.source");
  BOOST_TEST(e.line() == test::line_of(text, "largest_allocation"));
}

BOOST_AUTO_TEST_CASE(wrong_unit_and_missing_section_are_errors) {
  std::string text = test::read_text(test::kSyntheticCalibration);
  auto e = load_bad(test::replace_once(text, "granularity: {value: 32, unit: MiB",
                                       "granularity: {value: 32, unit: s"));
  BOOST_TEST(e.key() == "device_memory.pool.granularity.unit");
  auto e2 = load_bad(test::replace_once(text, "  oom_sticky:", "  oom_sticky_typo:"));
  BOOST_TEST(e2.key() == "device_memory.oom_sticky_typo");
  auto e3 = load_bad(test::replace_once(text, "value: 140.5, unit: GiB", "value: 150, unit: GiB"));
  BOOST_TEST(e3.key() == "device.free_at_context_start");
}

BOOST_AUTO_TEST_CASE(pending_free_vocabulary_is_validated) {
  // System: the pool's pending-free enumerations. Expectation: an unknown trim_with_pending_frees
  // value is an error naming its key and line; each known one loads to its enum; the model's
  // words for implicit device-wide waits (cuda_free, host_unregister) are accepted in
  // released_to_os_by.
  std::string text = test::read_text(test::kSyntheticCalibration);
  std::string bad = test::replace_once(text, "trim_with_pending_frees: {value: skips_pending",
                                       "trim_with_pending_frees: {value: sometimes");
  auto e = load_bad(bad);
  BOOST_TEST(e.key() == "device_memory.pool.trim_with_pending_frees.value");
  BOOST_TEST(e.line() == test::line_of(bad, "trim_with_pending_frees"));
  test::TempDir d("cal-pending");
  for (auto [word, want] :
       {std::pair{"waits_then_releases", model::TrimPending::waits_then_releases},
        std::pair{"releases_immediately", model::TrimPending::releases_immediately}}) {
    auto c = model::load_calibration(d.file(
        "c.yaml", test::replace_once(text, "trim_with_pending_frees: {value: skips_pending",
                                     std::string("trim_with_pending_frees: {value: ") + word)));
    BOOST_TEST((c.trim_with_pending_frees == want));
  }
  auto c = model::load_calibration(d.file(
      "c2.yaml",
      test::replace_once(text, "released_to_os_by: {value: [stream_sync,",
                         "released_to_os_by: {value: [cuda_free, host_unregister, stream_sync,")));
  BOOST_TEST(c.releases_on("cuda_free"));
  BOOST_TEST(c.releases_on("host_unregister"));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(sim_pipeline)

BOOST_AUTO_TEST_CASE(default_pipeline_is_the_supraseal_shape) {
  auto p = model::parse_pipeline(
      yaml::In(yaml::load_string(model::default_pipeline_text(), "<embedded>"), "<embedded>", ""));
  BOOST_TEST(p.inputs.size() == 3u);
  BOOST_TEST(p.buffers.size() == 3u);
  BOOST_REQUIRE_EQUAL(p.groups.size(), 2u);
  BOOST_TEST(p.buffers[p.groups[0].buffer].name == "d_a");
  BOOST_TEST(p.buffers[p.groups[1].buffer].name == "d_bc");
  BOOST_TEST((p.buffers[p.buffer_index("msm_scratch")].allocator == model::Allocator::pool));
  BOOST_TEST((p.steps.front().op == model::StepOp::lock));
}

BOOST_AUTO_TEST_CASE(sync_steps_parse_with_their_scope_and_bad_ones_name_line_and_key) {
  // System: the pipeline loader on the default pipeline with `sync` steps added. Expectation: a
  // sync step takes scope stream (default), event or device, named sync_<scope> unless named;
  // `scope` on another op, or an unknown scope, is an InputError naming the file, its line and
  // the key. Tolerance: none.
  test::TempDir d("pipe-sync");
  const std::string anchor = "  - {op: unlock}\n";
  std::string text = test::replace_once(
      model::default_pipeline_text(), anchor,
      anchor +
          "  - {op: sync}\n  - {op: sync, scope: device}\n  - {op: sync, scope: event, "
          "name: after_all}\n");
  auto p = model::load_pipeline(d.file("ok.yaml", text));
  std::vector<std::pair<std::string, model::SyncScope>> got;
  for (const auto& st : p.steps)
    if (st.op == model::StepOp::sync) got.emplace_back(st.name, st.scope);
  BOOST_REQUIRE_EQUAL(got.size(), 3u);
  BOOST_TEST(got[0].first == "sync_stream");
  BOOST_TEST((got[0].second == model::SyncScope::stream));
  BOOST_TEST(got[1].first == "sync_device");
  BOOST_TEST((got[1].second == model::SyncScope::device));
  BOOST_TEST(got[2].first == "after_all");
  BOOST_TEST((got[2].second == model::SyncScope::event));
  // The unlock step given a scope (in place of the unlock), and a sync step after the unlock
  // with an unknown scope.
  const std::pair<std::string, std::string> cases[] = {
      {"  - {op: unlock, scope: device}\n", "  - {op: unlock, scope: device}\n"},
      {"  - {op: sync, scope: all}\n", anchor + "  - {op: sync, scope: all}\n"}};
  for (const auto& [bad, replacement] : cases) {
    std::string t = test::replace_once(model::default_pipeline_text(), anchor, replacement);
    const std::string path = d.file("bad.yaml", t);
    try {
      model::load_pipeline(path);
      BOOST_ERROR("expected an InputError for " << bad);
    } catch (const InputError& e) {
      BOOST_TEST(e.file() == path);
      BOOST_TEST(e.line() == test::line_of(t, bad));
      BOOST_TEST(e.key().find("scope") != std::string::npos, e.what());
    }
  }
}

BOOST_AUTO_TEST_CASE(a_device_sync_step_waits_for_the_other_workers_kernels) {
  // System: the simulator on the tiny scenario (two workers, baseline: nothing staged) with a
  // lock-free pipeline: alloc d_a (pool), upload a, a 0.2 s spin kernel, then a `sync` step of
  // scope device (or stream), free d_a. Expectation: the step is a sync_device (sync_stream)
  // event on each worker's host track, once a partition, and its phase is counted; with scope
  // device it waits for the other worker's kernel queued behind this one's (its events sum to
  // more than 0.1 s) and adds that to the workers' device-wide waits (1e-9 s); with scope stream
  // it waits for nothing of the other worker's (its events sum to less than 0.01 s).
  // Tolerance: as stated.
  test::TempDir d("sim-sync-step");
  const std::string cal = std::filesystem::absolute(test::kSyntheticCalibration).string();
  for (const char* scope : {"device", "stream"}) {
    const std::string text = std::string(R"(schema: prestage-pipeline/1
name: sync-step-test
inputs:
  a: {bytes: "n*elem"}
buffers:
  d_a: {bytes: "n*elem", allocator: pool}
steps:
  - {op: alloc, buffer: d_a}
  - {op: upload, input: a, buffer: d_a, name: upload_a}
  - {op: kernel, name: spin, seconds: 0.2}
  - {op: sync, scope: )") + scope +
                             R"(}
  - {op: free, buffer: d_a}
)";
    const std::string pipe = d.file(std::string("p_") + scope + ".yaml", text);
    auto r =
        sim::run_scenario(model::load_scenario(test::kTinyScenario, {{"calibration", cal},
                                                                     {"pipeline", pipe},
                                                                     {"policy.name", "baseline"},
                                                                     {"policy.params", "{}"}}),
                          true);
    const std::string nm = std::string("sync_") + scope;
    double step_s = 0;
    int steps = 0;
    for (const auto& e : r.trace.events())
      if (r.trace.event_name(e.name) == nm && r.trace.track_name(e.track).ends_with("/host")) {
        ++steps;
        step_s += e.t_end - e.t_start;
      }
    BOOST_TEST_CONTEXT(scope << ": " << steps << " steps, " << step_s << " s") {
      BOOST_TEST(steps == r.summary.partitions_done);
      auto it = r.summary.phases.find(nm);
      BOOST_REQUIRE(it != r.summary.phases.end());
      BOOST_TEST(it->second.count == static_cast<std::uint64_t>(steps));
      double wait = 0;
      for (const auto& w : r.summary.workers) wait += w.device_wait_s;
      if (std::string(scope) == "device") {
        BOOST_TEST(step_s > 0.1);
        BOOST_TEST(wait >= step_s - 1e-9);
      } else {
        BOOST_TEST(step_s < 0.01);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(inconsistent_steps_are_rejected_with_their_line) {
  std::string text = model::default_pipeline_text();
  text = test::replace_once(text, "  - {op: free, buffer: d_bc}\n", "");
  test::TempDir d("pipe");
  std::string path = d.file("p.yaml", text);
  try {
    model::load_pipeline(path);
    BOOST_FAIL("expected an InputError");
  } catch (const InputError& e) {
    BOOST_TEST(std::string(e.what()).find("d_bc") != std::string::npos);
    BOOST_TEST(e.file() == path);
  }
  std::string bad_expr = test::replace_once(model::default_pipeline_text(),
                                            "\"n*elem*(1+lot_of_memory)\"", "\"n*elem*(1+lots)\"");
  try {
    model::load_pipeline(d.file("q.yaml", bad_expr));
    BOOST_FAIL("expected an InputError");
  } catch (const InputError& e) {
    BOOST_TEST(e.key() == "buffers.d_bc.bytes");
    BOOST_TEST(e.line() == test::line_of(bad_expr, "lots"));
  }
}

BOOST_AUTO_TEST_SUITE_END()

namespace {
// A MemoryView whose free memory the test sets; it records the blocking calls made.
struct FakeView : model::MemoryView {
  std::uint64_t free = 0;
  std::vector<std::string> calls;
  std::uint64_t free_bytes() override {
    calls.push_back("meminfo");
    return free;
  }
  std::uint64_t total_bytes() override { return 16 * GiB; }
  std::uint64_t pool_reserved() override { return 0; }
  std::uint64_t pool_used() override { return 0; }
  void trim(std::uint64_t) override { calls.push_back("trim"); }
  void synchronize(model::SyncKind k) override {
    calls.push_back(std::string("sync_") + model::to_string(k));
  }
};

model::StagingRequest porep_request() {
  model::StagingRequest r;
  r.group_bytes = {4 * GiB, 8 * GiB};  // d_a, d_bc at n = 2^27 with lot_of_memory
  r.locked_sync_bytes = 12 * GiB;
  r.pool_bytes = 4 * GiB;
  r.workers_on_gpu = 1;
  return r;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(sim_policy)

BOOST_AUTO_TEST_CASE(registry_has_the_builtin_policies) {
  auto names = model::policy_names();
  for (const char* n : {"baseline", "budget", "naive", "pinned", "tiers"})
    BOOST_TEST((std::find(names.begin(), names.end(), n) != names.end()), n);
  BOOST_TEST(!model::make_policy("no_such_policy", {}));
}

BOOST_AUTO_TEST_CASE(baseline_never_stages_and_stays_pageable) {
  auto p = model::make_policy("baseline", {});
  BOOST_TEST(!p->prestages());
  BOOST_TEST((p->pinning() == model::PinMode::pageable));
}

BOOST_AUTO_TEST_CASE(tiers_place_at_the_free_memory_boundaries) {
  // System: d_a 4 GiB, d_bc 8 GiB, margin 512 MiB. Expectation: both at free >= 12.5 GiB, only
  // d_a at free in [4.5 GiB, 12.5 GiB), nothing below 4.5 GiB; exact to the byte.
  auto p = model::make_policy("tiers", model::policy_params("tiers", "margin: 512MiB"));
  auto req = porep_request();
  FakeView v;
  struct Case {
    std::uint64_t free;
    int expect;
  } cases[] = {{12 * GiB + 512 * MiB, 2},
               {12 * GiB + 512 * MiB - 1, 1},
               {4 * GiB + 512 * MiB, 1},
               {4 * GiB + 512 * MiB - 1, 0},
               {0, 0},
               {100 * GiB, 2}};
  for (const auto& c : cases) {
    v.free = c.free;
    BOOST_TEST(p->place(v, req) == c.expect, "free " << c.free);
  }
}

BOOST_AUTO_TEST_CASE(tiers_synchronise_and_trim_before_reading_free_memory) {
  auto p = model::make_policy("tiers");  // defaults: sync device, trim before_check
  FakeView v;
  v.free = 100 * GiB;
  p->place(v, porep_request());
  BOOST_TEST(v.calls == (std::vector<std::string>{"sync_device", "trim", "meminfo"}),
             boost::test_tools::per_element());
  // sync none, trim on failure: only the read; a failure then syncs, trims and places smaller.
  auto q =
      model::make_policy("tiers", model::policy_params("tiers", "{sync: none, trim: on_failure}"));
  FakeView w;
  w.free = 100 * GiB;
  BOOST_TEST(q->place(w, porep_request()) == 2);
  BOOST_TEST(w.calls == (std::vector<std::string>{"meminfo"}), boost::test_tools::per_element());
  w.calls.clear();
  BOOST_TEST(q->on_failure(w, porep_request(), 2) == 1);
  BOOST_TEST(w.calls == (std::vector<std::string>{"trim", "meminfo"}),
             boost::test_tools::per_element());
  // tiers limited to a_only never place both.
  auto r = model::make_policy(
      "tiers", model::policy_params("tiers", "{sync: none, trim: on_failure, tiers: [a_only]}"));
  BOOST_TEST(r->place(w, porep_request()) == 1);
}

BOOST_AUTO_TEST_CASE(naive_places_everything_and_fails_the_partition_on_oom) {
  auto p = model::make_policy("naive", {});
  FakeView v;
  BOOST_TEST(p->place(v, porep_request()) == 2);
  BOOST_TEST(v.calls.empty());
  BOOST_TEST(p->on_failure(v, porep_request(), 2) == -1);
}

BOOST_AUTO_TEST_CASE(budget_shares_an_explicit_budget_without_synchronising) {
  // System: budget 21 GiB; per partition the locked path needs 12 GiB (cudaMalloc) + 4 GiB (pool),
  // margin 512 MiB: 16.5 GiB fixed. Expectation: d_a (4 GiB) fits once (20.5 <= 21), both never;
  // a second partition gets nothing until the first releases its staged d_a; no sync, no trim.
  auto p = model::make_policy("budget", model::policy_params("budget", "budget: 21GiB"));
  FakeView v;
  auto req = porep_request();
  BOOST_TEST(p->place(v, req) == 1);
  BOOST_TEST(p->place(v, req) == 0);
  p->released(req, 1);
  BOOST_TEST(p->place(v, req) == 1);
  for (const auto& c : v.calls) BOOST_TEST(c == "meminfo");
  BOOST_TEST(model::make_policy("budget", model::policy_params("budget", "budget: 20GiB"))
                 ->place(v, req) == 0);
}

BOOST_AUTO_TEST_CASE(policy_params_reject_unknown_keys_and_values) {
  std::string text = "margin: 1GiB\ntrim: sometimes\n";
  try {
    model::parse_policy_params(
        "tiers", yaml::In(yaml::load_string(text, "p.yaml"), "p.yaml", "policy.params"));
    BOOST_FAIL("expected an InputError");
  } catch (const InputError& e) {
    BOOST_TEST(e.key() == "policy.params.trim");
    BOOST_TEST(e.line() == 2);
  }
  auto p = model::parse_policy_params(
      "tiers", yaml::In(yaml::load_string("margin: 256MiB\ntiers: [a_only]\npinning: pinned_pool\n",
                                          "p.yaml"),
                        "p.yaml", "policy.params"));
  BOOST_TEST(p.bytes("margin") == 256 * MiB);
  BOOST_TEST(p.choices("tiers") == (std::vector<std::string>{"a_only"}),
             boost::test_tools::per_element());
  BOOST_TEST((p.pinning == model::PinMode::pinned_pool));
  BOOST_TEST(p.has_pinning);
  BOOST_TEST(p.given("margin"));
  BOOST_TEST(!p.given("trim"));
}

BOOST_AUTO_TEST_CASE(a_parameter_the_policy_does_not_declare_names_file_line_and_key) {
  // System: `margin` (declared by tiers and budget) given to baseline and naive, and `lock_aware`
  // (tiers only) given to budget. Expectation: an InputError at the key's line naming the key,
  // the file, and the policy's file.
  struct Case {
    const char* policy;
    std::string text, key;
    int line;
  } cases[] = {
      {"baseline", "pinning: pageable\nmargin: 1GiB\n", "policy.params.margin", 2},
      {"naive", "margin: 1GiB\n", "policy.params.margin", 1},
      {"budget", "margin: 1GiB\nbudget: 20GiB\nlock_aware: true\n", "policy.params.lock_aware", 3},
      {"pinned", "tiers: [both]\n", "policy.params.tiers", 1}};
  for (const auto& c : cases) {
    try {
      model::parse_policy_params(
          c.policy, yaml::In(yaml::load_string(c.text, "s.yaml"), "s.yaml", "policy.params"));
      BOOST_ERROR("expected an InputError for " << c.policy);
    } catch (const InputError& e) {
      BOOST_TEST(e.file() == "s.yaml");
      BOOST_TEST(e.line() == c.line, c.policy);
      BOOST_TEST(e.key() == c.key, c.policy);
      BOOST_TEST(std::string(e.what()).find(std::string("model/policies/")) != std::string::npos,
                 e.what());
    }
  }
  // A badly typed value of a declared parameter: at its line and key.
  try {
    model::policy_params("tiers", "margin: 1GiB\nlock_aware: maybe\n", "t.yaml");
    BOOST_ERROR("expected an InputError");
  } catch (const InputError& e) {
    BOOST_TEST(e.key() == "policy.params.lock_aware");
    BOOST_TEST(e.line() == 2);
  }
}

BOOST_AUTO_TEST_CASE(each_declared_parameter_has_its_default) {
  // System: every policy resolved with no params. Expectation: every declared name present with
  // its default, exactly as the declarations (and `prestage policies`) say.
  using Map = std::map<std::string, std::string>;
  const std::map<std::string, Map> expect = {
      {"baseline", {{"release_threshold", ""}, {"pinning", "pageable"}}},
      {"naive", {{"release_threshold", ""}, {"pinning", "register_per_partition"}}},
      {"pinned",
       {{"release_threshold", ""}, {"pinning", "register_per_partition"}, {"sync", "stream"}}},
      {"budget",
       {{"release_threshold", ""},
        {"pinning", "register_per_partition"},
        {"margin", "512 MiB"},
        {"tiers", "[both, a_only]"},
        {"budget", "0 B"}}},
      {"tiers",
       {{"release_threshold", ""},
        {"pinning", "register_per_partition"},
        {"margin", "512 MiB"},
        {"trim", "before_check"},
        {"sync", "device"},
        {"tiers", "[both, a_only]"},
        {"lock_aware", "false"}}},
  };
  for (const auto& [name, want] : expect) BOOST_TEST(model::find_policy(name), name);
  for (const auto& [name, want] : expect) {
    auto p = model::policy_params(name);
    BOOST_TEST((p.resolved_text() == want), name);
    BOOST_TEST(!p.has_release_threshold);
    BOOST_TEST(!p.has_pinning);
    auto decls = model::declared_params(name);
    BOOST_TEST(decls.size() == want.size(), name);
    for (const auto& d : decls) BOOST_TEST(!d.doc.empty(), name << "." << d.name);
  }
  auto t = model::policy_params("tiers");
  BOOST_TEST(t.bytes("margin") == 512 * MiB);
  BOOST_TEST(!t.flag("lock_aware"));
  BOOST_TEST(model::policy_params("budget").bytes("budget") == 0u);
  BOOST_TEST((model::make_policy("baseline")->pinning() == model::PinMode::pageable));
  BOOST_TEST((model::make_policy("pinned")->pinning() == model::PinMode::register_per_partition));
  // The inherited ones resolve into the drivers' typed members.
  auto b = model::policy_params("baseline", "{release_threshold: 1GiB, pinning: pinned_pool}");
  BOOST_TEST(b.has_release_threshold);
  BOOST_TEST(b.release_threshold == GiB);
  BOOST_TEST((b.pinning == model::PinMode::pinned_pool));
  BOOST_TEST(b.resolved_text().at("release_threshold") == "1 GiB");
}

BOOST_AUTO_TEST_CASE(tiers_lock_aware_keeps_free_what_the_holder_still_allocates) {
  // System: tiers, margin 512 MiB, sync none, trim never, d_a 4 GiB / d_bc 8 GiB; free 13 GiB.
  // Expectation: without lock_aware both groups (12.5 <= 13); lock-aware with a holder that will
  // still grow by 5 GiB: only d_a (4 + 0.5 + 5 <= 13 < 12 + 0.5 + 5); a view that cannot tell
  // reserves the worst case (12 + 4 GiB): nothing; no holder: both.
  struct HolderView : FakeView {
    model::LockHolder h;
    model::LockHolder lock_holder() override { return h; }
  };
  const char* base = "{sync: none, trim: never, margin: 512MiB";
  auto plain = model::make_policy("tiers", model::policy_params("tiers", std::string(base) + "}"));
  auto aware = model::make_policy(
      "tiers", model::policy_params("tiers", std::string(base) + ", lock_aware: true}"));
  HolderView v;
  v.free = 13 * GiB;
  v.h.known = v.h.held = true;
  v.h.peak_more = 5 * GiB;
  BOOST_TEST(plain->place(v, porep_request()) == 2);
  BOOST_TEST(aware->place(v, porep_request()) == 1);
  v.h = model::LockHolder{};  // unknown
  BOOST_TEST(aware->place(v, porep_request()) == 0);
  v.h.known = true;  // known, nobody holds the lock
  BOOST_TEST(aware->place(v, porep_request()) == 2);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(sim_lock_holder)

namespace {
// A probe policy: records what lock_holder() says at each place() and stages nothing.
std::vector<model::LockHolder>& seen() {
  static std::vector<model::LockHolder> v;
  return v;
}
struct LockProbe final : model::Policy {
  explicit LockProbe(model::PolicyParams p) : Policy(std::move(p)) {}
  bool prestages() const override { return true; }
  int place(model::MemoryView& v, const model::StagingRequest&) override {
    seen().push_back(v.lock_holder());
    return 0;
  }
};
const bool kProbeRegistered = [] {
  model::register_policy(
      {.name = "test_lock_probe",
       .doc = "test only",
       .params = {},
       .make = [](const model::PolicyParams& p) { return std::make_unique<LockProbe>(p); }});
  return true;
}();
}  // namespace

BOOST_AUTO_TEST_CASE(locked_remaining_follows_the_pipeline_steps) {
  // System: the tiny scenario's pipeline at 2^20 (d_a 32 MiB, d_bc 64 MiB sync; msm_scratch
  // 40.5 MiB pool), nothing pre-staged. Expectation (MiB): at the lock 0 held, 136.5 to allocate,
  // growth at most 96 (d_a + d_bc); after d_a 32 / 104.5 / 64; after d_bc 96 / 40.5 / 0 (d_bc is
  // freed before msm_scratch); with d_a pre-staged (1 group), d_a is never counted. Exact.
  auto s = model::load_scenario(test::kTinyScenario);
  const auto& p = s.pipe;
  auto idx = [&](model::StepOp op, const char* buf) {
    for (std::size_t i = 0; i < p.steps.size(); ++i)
      if (p.steps[i].op == op && (!buf || p.steps[i].buffer == p.buffer_index(buf))) return i;
    throw std::runtime_error("no such step");
  };
  const std::size_t A = p.buffer_index("d_a"), BC = p.buffer_index("d_bc");
  std::vector<std::uint64_t> held(p.buffers.size(), 0);
  auto h = model::locked_remaining(s, idx(model::StepOp::lock, nullptr), held, 0);
  BOOST_TEST(h.known);
  BOOST_TEST(h.held);
  BOOST_TEST(h.held_bytes == 0u);
  BOOST_TEST(h.to_allocate == 136 * MiB + 512 * 1024);
  BOOST_TEST(h.peak_more == 96 * MiB);
  held[A] = 32 * MiB;
  h = model::locked_remaining(s, idx(model::StepOp::alloc, "d_a") + 1, held, 0);
  BOOST_TEST(h.held_bytes == 32 * MiB);
  BOOST_TEST(h.to_allocate == 104 * MiB + 512 * 1024);
  BOOST_TEST(h.peak_more == 64 * MiB);
  held[BC] = 64 * MiB;
  h = model::locked_remaining(s, idx(model::StepOp::alloc, "d_bc") + 1, held, 0);
  BOOST_TEST(h.held_bytes == 96 * MiB);
  BOOST_TEST(h.to_allocate == 40 * MiB + 512 * 1024);
  BOOST_TEST(h.peak_more == 0u);
  // d_a pre-staged and held: its alloc step is skipped.
  held[BC] = 0;
  h = model::locked_remaining(s, idx(model::StepOp::lock, nullptr), held, 1);
  BOOST_TEST(h.held_bytes == 32 * MiB);
  BOOST_TEST(h.to_allocate == 104 * MiB + 512 * 1024);
  BOOST_TEST(h.peak_more == 64 * MiB);
}

BOOST_AUTO_TEST_CASE(simulated_lock_holder_is_seen_by_the_other_stager) {
  // System: the tiny scenario (two workers, 2^20) for 6 proofs with the probe policy, which
  // stages nothing. Expectation: every answer is known; some place() calls see the lock held
  // (by worker 0 or 1), and each held answer is one of the states the pipeline passes through
  // with nothing staged (held / to allocate / growth, MiB): 0/136.5/96, 32/104.5/64,
  // 96/40.5/0, 32/40.5/40.5, 72.5/0/0, 32/0/0, 0/0/0. Exact.
  seen().clear();
  auto s = model::load_scenario(test::kTinyScenario,
                                {{"policy", "{name: test_lock_probe}"}, {"workload.proofs", "6"}});
  auto r = sim::run_scenario(s, false);
  BOOST_TEST(r.summary.partitions_done == 12);
  const std::uint64_t K = 512 * 1024;
  const std::vector<std::array<std::uint64_t, 3>> states = {{0, 136 * MiB + K, 96 * MiB},
                                                            {32 * MiB, 104 * MiB + K, 64 * MiB},
                                                            {96 * MiB, 40 * MiB + K, 0},
                                                            {32 * MiB, 40 * MiB + K, 40 * MiB + K},
                                                            {72 * MiB + K, 0, 0},
                                                            {32 * MiB, 0, 0},
                                                            {0, 0, 0}};
  int held = 0;
  BOOST_TEST(seen().size() == 12u);
  for (const auto& h : seen()) {
    BOOST_TEST(h.known);
    if (!h.held) continue;
    ++held;
    BOOST_TEST((h.worker == 0 || h.worker == 1));
    BOOST_TEST(h.partition >= 0);
    std::array<std::uint64_t, 3> t = {h.held_bytes, h.to_allocate, h.peak_more};
    BOOST_TEST((std::find(states.begin(), states.end(), t) != states.end()),
               h.held_bytes << " " << h.to_allocate << " " << h.peak_more);
  }
  BOOST_TEST(held > 0);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(sim_control_policy)

BOOST_AUTO_TEST_CASE(pinned_reproduces_budget_where_budget_stages_nothing) {
  // System: two workers at 16 GiB, 2^27 (data/scenarios/two_workers_16gib_budget.yaml): budget
  // counts 12 GiB cudaMalloc + 2 x 5.06 GiB pool + margin > 16 GiB, so it stages nothing.
  // Expectation: budget's trace has no staged upload; the control `pinned` (no pre-staging,
  // pinned uploads inside the lock, a stream sync after each partition) gives the same makespan
  // (relative 1e-9) and all 10 proofs with no OOM; so does `pinned` with sync none, since the
  // proof download's stream sync already releases the MSM scratch each partition frees;
  // baseline (pageable uploads) has no OOM either and is slower by the pageable uploads.
  const std::string f = "data/scenarios/two_workers_16gib_budget.yaml";
  auto run = [&](const std::string& policy, bool trace) {
    return sim::run_scenario(model::load_scenario(f, {{"policy", policy}}), trace);
  };
  auto budget = run("{name: budget, params: {margin: 512MiB}}", true);
  for (const auto& e : budget.trace.events())
    BOOST_TEST(budget.trace.event_name(e.name).rfind("staged_uploads_", 0) != 0u);
  auto pinned = run("{name: pinned}", false);
  auto baseline = run("{name: baseline}", false);
  auto nosync = run("{name: pinned, params: {sync: none}}", false);
  BOOST_TEST(pinned.summary.proofs_completed == budget.summary.proofs_completed);
  BOOST_TEST(pinned.summary.makespan_s == budget.summary.makespan_s,
             boost::test_tools::tolerance(1e-9));
  BOOST_TEST(pinned.summary.proofs_completed == 10);
  BOOST_TEST(pinned.summary.ooms.empty());
  // The download's stream sync makes the pool frees visible to the other worker's cudaMalloc
  // without the policy's own sync: budget's gain here is the pinned uploads alone.
  BOOST_TEST(nosync.summary.ooms.empty());
  BOOST_TEST(nosync.summary.makespan_s == pinned.summary.makespan_s,
             boost::test_tools::tolerance(1e-9));
  BOOST_TEST(baseline.summary.ooms.empty());
  BOOST_TEST(baseline.summary.makespan_s > 1.2 * pinned.summary.makespan_s);
  BOOST_TEST_MESSAGE("16 GiB two workers makespan: baseline "
                     << baseline.summary.makespan_s << " s, pinned(sync none) "
                     << nosync.summary.makespan_s << " s, pinned " << pinned.summary.makespan_s
                     << " s, budget " << budget.summary.makespan_s << " s");
}

BOOST_AUTO_TEST_CASE(a_pinned_pool_pins_the_host_slots_once_before_the_run) {
  // System: the same two-worker 16 GiB scenario under the control `pinned`, pinning per
  // partition (cudaHostRegister / Unregister) and pinning: pinned_pool. Expectation: the pool's
  // run has no host_register / host_unregister event, reports host.host_slots x the partition's
  // inputs as its pool, set up in the calibration's malloc_host at those bytes (relative 1e-12,
  // outside the makespan), finishes every partition, and is no slower than registering each
  // partition (its uploads are pinned alike, and nothing waits for a registration).
  const std::string f = "data/scenarios/two_workers_16gib_budget.yaml";
  auto pool_s =
      model::load_scenario(f, {{"policy", "{name: pinned, params: {pinning: pinned_pool}}"}});
  auto reg = sim::run_scenario(model::load_scenario(f, {{"policy", "{name: pinned}"}}), true);
  auto pool = sim::run_scenario(pool_s, true);
  int reg_pins = 0;
  for (const auto& e : reg.trace.events())
    reg_pins += reg.trace.event_name(e.name) == "host_register";
  BOOST_TEST(reg_pins == reg.summary.partitions_total);
  for (const auto& e : pool.trace.events()) {
    const std::string nm = pool.trace.event_name(e.name);
    BOOST_TEST((nm != "host_register" && nm != "host_unregister"), nm);
  }
  double inputs = 0;
  for (double b : pool_s.input_bytes) inputs += b;
  BOOST_TEST(pool.summary.pinned_pool_bytes == inputs * pool_s.host_slots);
  BOOST_TEST(
      pool.summary.pinned_pool_setup_s == pool_s.cal.malloc_host.at(pool.summary.pinned_pool_bytes),
      boost::test_tools::tolerance(1e-12));
  BOOST_TEST(pool.summary.pinned_pool_setup_s > 0);
  BOOST_TEST(model::to_json(pool.summary)["pinned_pool"]["bytes_B"].get<double>() ==
             pool.summary.pinned_pool_bytes);
  BOOST_TEST(!model::to_json(reg.summary).contains("pinned_pool"));
  BOOST_TEST(pool.summary.partitions_done == pool.summary.partitions_total);
  BOOST_TEST(pool.summary.makespan_s <= reg.summary.makespan_s);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(sim_scenario)

BOOST_AUTO_TEST_CASE(tiny_scenario_binds_sizes) {
  auto s = model::load_scenario(test::kTinyScenario);
  BOOST_TEST(s.log2_n == 20);
  BOOST_TEST(s.vram == 16.0 * GiB);
  BOOST_TEST(s.lot_of_memory);
  BOOST_TEST(s.input_bytes[0] == 32.0 * (1 << 20));
  BOOST_TEST(s.buffer_bytes[s.pipe.buffer_index("d_bc")] == 64.0 * (1 << 20));
  BOOST_TEST(s.locked_sync_peak == 96 * MiB);  // d_a + d_bc
  // msm_scratch: n*81/2 B in the default pipeline (measured at 2^27, supraseal_c2.yaml).
  BOOST_TEST(s.pool_peak == (std::size_t{1} << 20) * 81 / 2);
  BOOST_TEST(s.policy == "tiers");
}

BOOST_AUTO_TEST_CASE(bad_scenarios_name_file_line_and_key) {
  std::string base = test::read_text(test::kTinyScenario);
  // The temp copy must find the calibration: use its absolute path.
  base = test::replace_once(
      base, "calibration: calibration_synthetic.yaml",
      "calibration: " + std::filesystem::absolute(test::kSyntheticCalibration).string());
  test::TempDir d("scn");
  struct Case {
    std::string from, to, key, needle;
  } cases[] = {
      {"name: tiers", "name: nonexistent", "policy.name", "nonexistent"},
      {"proofs: 2}", "proofs: 2, extra: 1}", "workload.extra", "extra"},
      {"workers_per_gpu: 2}", "workers_per_gpu: zero}", "gpus.workers_per_gpu", "zero"},
      {"margin: 512MiB", "margin: lots", "policy.params.margin", "margin: lots"},
      {"run: {seed: 7", "runn: {seed: 7", "runn", "runn"},
  };
  for (const auto& c : cases) {
    std::string text = test::replace_once(base, c.from, c.to);
    std::string path = d.file("s.yaml", text);
    try {
      model::load_scenario(path);
      BOOST_ERROR("expected an InputError for " << c.key);
    } catch (const InputError& e) {
      BOOST_TEST(e.file() == path);
      BOOST_TEST(e.key() == c.key);
      BOOST_TEST(e.line() == test::line_of(text, c.needle), c.key);
    }
  }
  // Missing calibration file: the error points at the scenario's calibration key.
  std::string text = test::replace_once(test::read_text(test::kTinyScenario),
                                        "calibration_synthetic.yaml", "missing.yaml");
  std::string path = d.file("m.yaml", text);
  try {
    model::load_scenario(path);
    BOOST_ERROR("expected an InputError");
  } catch (const InputError& e) {
    BOOST_TEST(e.key() == "calibration");
    BOOST_TEST(e.line() == test::line_of(text, "missing.yaml"));
  }
}

BOOST_AUTO_TEST_CASE(phases_that_override_curves_give_a_note_that_log2_n_does_not_move_them) {
  // System: data/scenarios/default.yaml (every kernel and cpu step given under phases:) at
  // workload.log2_n 10, 20 and 27; the tiny scenario with only msm_h given; experiment 03's budget
  // scenario (phases: only msm_b_g2, whose curve the calibration lacks).
  // Expectation: default.yaml gets one note naming the overridden steps with their curves and
  // saying log2_n changes only the buffer and copy sizes, the same text at every log2_n (a sweep
  // prints it once); with msm_h alone the note names msm_h and the steps that still follow
  // log2_n; a phase that only fills a missing curve gets no note; summary.json carries the
  // notes. Tolerance: exact text.
  std::vector<std::string> notes;
  for (const char* n : {"10", "20", "27"}) {
    auto s = model::load_scenario("data/scenarios/default.yaml", {{"workload.log2_n", n}});
    BOOST_TEST_REQUIRE(s.notes.size() == 1u, n);
    notes.push_back(s.notes[0]);
  }
  BOOST_TEST(notes[0] == notes[1]);
  BOOST_TEST(notes[0] == notes[2]);
  const std::string& all = notes[0];
  BOOST_TEST(all.rfind("phases fixed by the scenario: h_input_a (0.0933 s, not the calibration's "
                       "curve h_input), ",
                       0) == 0,
             all);
  BOOST_TEST(all.find("msm_h (1.117 s, not the calibration's curve msm_g1)") != std::string::npos);
  BOOST_TEST(all.find("msm_b_g2 (3 s, no curve msm_g2_cpu in the calibration)") !=
             std::string::npos);
  const std::string only_sizes =
      "their times do not follow workload.log2_n: log2_n changes only the buffer and copy sizes";
  BOOST_TEST(all.size() >= only_sizes.size());
  BOOST_TEST(all.substr(all.size() - only_sizes.size()) == only_sizes, all);

  auto one = model::load_scenario(test::kTinyScenario, {{"phases.msm_h", "1.5"}});
  BOOST_TEST_REQUIRE(one.notes.size() == 1u);
  BOOST_TEST(one.notes[0].rfind("phases fixed by the scenario: msm_h (1.5 s, not the "
                                "calibration's curve msm_g1); their times do not follow "
                                "workload.log2_n: log2_n changes the buffer and copy sizes and "
                                "the times of h_input_a, h_input_b, h_input_c, coset_intt_h, "
                                "msm_l, ",
                                0) == 0,
             one.notes[0]);
  auto r = sim::run_scenario(one, false);
  auto j = model::to_json(r.summary);
  BOOST_TEST_REQUIRE(j["notes"].is_array());
  BOOST_TEST(j["notes"].size() == 1u);
  BOOST_TEST(j["notes"][0].get<std::string>() == one.notes[0]);

  auto filled = model::load_scenario("experiments/03_tiers_16g/budget_2w.yaml");
  BOOST_TEST(filled.notes.empty());
  auto none = model::load_scenario(test::kTinyScenario);
  BOOST_TEST(none.notes.empty());
  auto jn = model::to_json(sim::run_scenario(none, false).summary);
  BOOST_TEST(jn["notes"].is_array());  // present, empty: the field is additive, always there
  BOOST_TEST(jn["notes"].empty());
}

BOOST_AUTO_TEST_CASE(a_buffer_larger_than_the_card_is_refused_at_load_naming_file_line_and_key) {
  // System: the tiny scenario (embedded supraseal_c2 pipeline, synthetic calibration: 141 GiB
  // total, 140.5 GiB free at context start, so 0.5 GiB context overhead) at log2_n 27, where
  // d_a and d_bc are 4 GiB and msm_scratch n*81/2 = 5184 MiB, and the pipeline's resident NTT
  // tables n*329/20 = 2207881626 B (R) come off the card too.
  // Expectation: with gpus.vram 5695 MiB + R (5183 MiB usable) loading throws InputError at the
  // scenario's gpus.vram (file, line, key) naming msm_scratch and the sizes; above it the
  // partition's peak decides (below); when a --set/--vary changed log2_n the error names that
  // key. Tolerance: none (exact byte boundary).
  std::string base = test::read_text(test::kTinyScenario);
  base = test::replace_once(
      base, "calibration: calibration_synthetic.yaml",
      "calibration: " + std::filesystem::absolute(test::kSyntheticCalibration).string());
  base = test::replace_once(base, "log2_n: 20", "log2_n: 27");
  test::TempDir d("infeasible");
  std::string text = test::replace_once(base, "vram: 16GiB", "vram: 8179521946B");
  std::string path = d.file("s.yaml", text);
  try {
    model::load_scenario(path);
    BOOST_ERROR("expected an InputError: msm_scratch (5184 MiB) > 5183 MiB usable");
  } catch (const InputError& e) {
    BOOST_TEST(e.file() == path);
    BOOST_TEST(e.key() == "gpus.vram");
    BOOST_TEST(e.line() == test::line_of(text, "vram: 8179521946B"));
    std::string w = e.what();
    BOOST_TEST(w.find("infeasible, not simulated: buffer 'msm_scratch'") != std::string::npos, w);
    BOOST_TEST(w.find("5.06 GiB (5435817984 B) at workload.log2_n = 27") != std::string::npos, w);
    BOOST_TEST(w.find("context overhead 0.50 GiB (536870912 B)") != std::string::npos, w);
    BOOST_TEST(w.find("the prover's resident memory 2.06 GiB (2207881626 B) (the pipeline's "
                      "`resident`)") != std::string::npos,
               w);
    BOOST_TEST(w.find("leaves 5.06 GiB (5434769408 B)") != std::string::npos, w);
  }
  // At 5696 MiB + R msm_scratch alone fits, but one partition's peak (d_a 4096 MiB + msm_scratch
  // 5184 MiB = 9280 MiB, at step alloc_msm_scratch) does not: refused, naming the step and the
  // buffers; at 9791 MiB + R (1 MiB short of 9280 + 512) still refused; at 9792 MiB + R it loads.
  for (const char* vram : {"8180570522B", "12474489242B"}) {
    std::string t = test::replace_once(base, "vram: 16GiB", std::string("vram: ") + vram);
    try {
      model::load_scenario(d.file("peak.yaml", t));
      BOOST_ERROR("expected an InfeasibleError at " << vram << ": one partition needs 9280 MiB");
    } catch (const InfeasibleError& e) {
      std::string w = e.what();
      BOOST_TEST(e.key() == "gpus.vram");
      BOOST_TEST(w.find("infeasible, not simulated: one partition holds 9.06 GiB (9730785280 B) "
                        "at once at step 'alloc_msm_scratch'") != std::string::npos,
                 w);
      BOOST_TEST(w.find("(buffers d_a, msm_scratch at workload.log2_n = 27") != std::string::npos,
                 w);
    }
  }
  auto ok = model::load_scenario(
      d.file("ok.yaml", test::replace_once(base, "vram: 16GiB", "vram: 12475537818B")));
  BOOST_TEST(ok.buffer_bytes[ok.pipe.buffer_index("msm_scratch")] == 5184.0 * MiB);
  BOOST_TEST(ok.resident_bytes == 2207881626.0);
  BOOST_TEST(ok.vram - (ok.cal.total_memory - ok.cal.free_at_context_start) - ok.resident_bytes ==
             9280.0 * MiB);
  std::string p16 = d.file("p16.yaml", test::replace_once(base, "log2_n: 27", "log2_n: 20"));
  try {
    model::load_scenario(p16, {{"workload.log2_n", "29"}});  // d_a 16 GiB > 15.5 GiB usable
    BOOST_ERROR("expected an InputError at log2_n 29 on 16 GiB");
  } catch (const InputError& e) {
    BOOST_TEST(e.key() == "workload.log2_n");
    BOOST_TEST(std::string(e.what()).find("buffer 'd_a'") != std::string::npos, e.what());
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(sim_trace)

BOOST_AUTO_TEST_CASE(writers_emit_one_line_per_event_and_valid_chrome_json) {
  model::Trace t;
  model::TraceEvent e;
  e.t_start = 0.5;
  e.t_end = 1.25;
  e.track = t.track_id("gpu0/compute");
  e.name = t.name_id("msm_h");
  e.kind = model::EventKind::compute;
  e.gpu = 0;
  e.worker = 1;
  e.partition = 3;
  t.add(e);
  t.add(model::MemorySample{0.75, 0, 10, 20, 30});
  std::ostringstream j, c;
  t.write_jsonl(j);
  BOOST_TEST(
      j.str() ==
      "{\"t_start\":0.5,\"t_end\":1.25,\"track\":\"gpu0/compute\",\"name\":\"msm_h\",\"kind\":"
      "\"compute\",\"gpu\":0,\"worker\":1,\"partition\":3,\"bytes\":0}\n"
      "{\"t_start\":0.75,\"t_end\":0.75,\"track\":\"gpu0/memory\",\"name\":\"device_memory\","
      "\"kind\":\"memory\",\"gpu\":0,\"worker\":-1,\"partition\":-1,\"used\":10,\"reserved\":20,"
      "\"free\":30}\n");
  t.write_chrome(c);
  auto doc = nlohmann::json::parse(c.str());
  BOOST_TEST(doc["traceEvents"].size() == 4u);  // process name, thread name, slice, counter
  BOOST_TEST(doc["traceEvents"][2]["dur"].get<double>() == 750000.0);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(sim_trace_compare)

BOOST_AUTO_TEST_CASE(event_log_round_trips_and_compares) {
  // System: the tiny scenario's event log, written and read back. Expectation: re-writing the
  // read trace gives the same bytes; compared with itself: zero makespan error, equal per-name
  // stats; with every time doubled: relative makespan error 0.5 against the doubled reference.
  auto s = model::load_scenario(test::kTinyScenario);
  auto r = sim::run_scenario(s, true);
  test::TempDir d("cmp");
  std::ostringstream a;
  r.trace.write_jsonl(a);
  std::string path = d.file("a.jsonl", a.str());
  model::Trace back = model::read_jsonl(path);
  std::ostringstream again;
  back.write_jsonl(again);
  BOOST_TEST(again.str() == a.str());
  auto same = model::compare(back, r.trace);
  BOOST_TEST(same.makespan_rel_error == 0.0);
  for (const auto& [name, p] : same.by_name) {
    BOOST_TEST(p.first.count == p.second.count, name);
    BOOST_TEST(p.first.total_s == p.second.total_s, name);
  }
  model::Trace doubled;
  for (const auto& e : r.trace.events()) {
    model::TraceEvent x = e;
    x.t_start *= 2;
    x.t_end *= 2;
    x.track = doubled.track_id(r.trace.track_name(e.track));
    x.name = doubled.name_id(r.trace.event_name(e.name));
    doubled.add(x);
  }
  auto c = model::compare(r.trace, doubled);
  BOOST_TEST(c.makespan_rel_error == 0.5, boost::test_tools::tolerance(1e-12));
  // A malformed line names file, line and field.
  const std::string text = a.str();
  std::string bad = d.file("b.jsonl", text + "{\"t_start\":1}\n");
  try {
    model::read_jsonl(bad);
    BOOST_FAIL("expected an InputError");
  } catch (const InputError& e) {
    BOOST_TEST(e.line() == static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1);
    BOOST_TEST(e.key() == "kind");
  }
}

BOOST_AUTO_TEST_CASE(compare_counts_each_kernel_and_copy_once) {
  // System: the tiny scenario (2 proofs x 2 partitions, two workers): each kernel is recorded on
  // gpu0/compute and again on the worker's host track, each unstaged upload on gpu0/h2d and on
  // the host track. Expectation: compare() counts every event name as often as the summary's
  // phase of that name (once per kernel, copy, CPU step), with the device track's durations:
  // for a kernel, total_s equals the sum of its compute-track events. Exact counts; durations to
  // 1e-12 s.
  auto s = model::load_scenario(test::kTinyScenario);
  auto r = sim::run_scenario(s, true);
  auto c = model::compare(r.trace, r.trace);
  BOOST_TEST(!r.summary.phases.empty());
  int kernels = 0;
  for (const auto& [name, ph] : r.summary.phases) {
    BOOST_TEST_CONTEXT("phase " << name) {
      BOOST_REQUIRE(c.by_name.count(name));
      BOOST_TEST(c.by_name.at(name).first.count == ph.count);
      BOOST_TEST(c.by_name.at(name).second.count == ph.count);
    }
  }
  for (const auto& st : s.pipe.steps) {
    if (st.op != model::StepOp::kernel) continue;
    ++kernels;
    double device = 0;
    std::int64_t n = 0;
    for (const auto& e : r.trace.events())
      if (r.trace.event_name(e.name) == st.name &&
          model::is_device_track(r.trace.track_name(e.track))) {
        device += e.t_end - e.t_start;
        ++n;
      }
    BOOST_TEST_CONTEXT("kernel " << st.name) {
      BOOST_TEST(n == r.summary.phases.at(st.name).count);
      BOOST_TEST(c.by_name.at(st.name).first.total_s == device,
                 boost::test_tools::tolerance(1e-12));
    }
  }
  BOOST_TEST(kernels > 0);
  BOOST_TEST(c.mirrors_a > 0);
  BOOST_TEST(c.mirrors_a == c.mirrors_b);
  BOOST_TEST(model::is_device_track("gpu0/compute"));
  BOOST_TEST(model::is_device_track("gpu12/h2d"));
  BOOST_TEST(!model::is_device_track("gpu0/w1/host"));
  BOOST_TEST(!model::is_device_track("host/cpu"));
  BOOST_TEST(!model::is_device_track("gpu0"));
}

BOOST_AUTO_TEST_CASE(compare_keeps_host_events_without_a_device_twin) {
  // System: a hand-written log with one kernel only on a worker's host track (as a measured log
  // without device tracks would have it) and one kernel on both tracks. Expectation: the lone
  // host event counts; the twin pair counts once. Exact.
  model::Trace t;
  auto add = [&](const char* track, const char* name, std::int64_t part, double t0, double t1) {
    model::TraceEvent e;
    e.t_start = t0;
    e.t_end = t1;
    e.track = t.track_id(track);
    e.name = t.name_id(name);
    e.kind = model::EventKind::compute;
    e.gpu = 0;
    e.worker = 1;
    e.partition = part;
    t.add(e);
  };
  add("gpu0/w1/host", "msm", 0, 0, 1);
  add("gpu0/compute", "msm", 1, 1.5, 2);
  add("gpu0/w1/host", "msm", 1, 1, 2);
  auto c = model::compare(t, t);
  BOOST_TEST(c.by_name.at("msm").first.count == 2);
  BOOST_TEST(c.by_name.at("msm").first.total_s == 1.5);
  BOOST_TEST(c.mirrors_a == 1);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(yaml_input)

BOOST_AUTO_TEST_CASE(duplicate_keys_are_errors_in_every_loader) {
  // System: a key given twice in one map (yaml-cpp alone keeps one silently), in a scenario (a
  // flow map), a calibration (a block map, nested) and a pipeline (inside a sequence's map).
  // Expectation: InputError naming the file, the second occurrence's line and the key path, and
  // "duplicate key". Exact.
  test::TempDir d("dup");
  auto expect_dup = [](auto load, const std::string& path, int line, const std::string& key) {
    try {
      load(path);
      BOOST_FAIL("expected an InputError for " + key);
    } catch (const InputError& e) {
      BOOST_TEST(e.file() == path);
      BOOST_TEST(e.line() == line);
      BOOST_TEST(e.key() == key);
      BOOST_TEST(std::string(e.what()).find("duplicate key") != std::string::npos, e.what());
    }
  };
  // Scenario.
  std::string scn = test::read_text(test::kTinyScenario);
  scn = test::replace_once(
      scn, "calibration: calibration_synthetic.yaml",
      "calibration: " + std::filesystem::absolute(test::kSyntheticCalibration).string());
  std::string scn_dup = test::replace_once(scn, "proofs: 2}", "proofs: 2, proofs: 3}");
  expect_dup([](const std::string& p) { model::load_scenario(p); }, d.file("s.yaml", scn_dup),
             test::line_of(scn_dup, "proofs: 3"), "workload.proofs");
  std::string scn_top = scn + "name: again\n";
  expect_dup([](const std::string& p) { model::load_scenario(p); }, d.file("t.yaml", scn_top),
             test::line_of(scn_top, "name: again"), "name");
  // Calibration.
  std::string cal = test::read_text(test::kSyntheticCalibration);
  std::string cal_dup =
      test::replace_once(cal, "  measured_on: \"never (synthetic)\"\n",
                         "  measured_on: \"never (synthetic)\"\n  driver: \"twice\"\n");
  expect_dup([](const std::string& p) { model::load_calibration(p); }, d.file("c.yaml", cal_dup),
             test::line_of(cal_dup, "driver: \"twice\""), "device.driver");
  // Pipeline.
  std::string pipe = test::read_text("tests/data/sim/upload_pipeline.yaml");
  std::string pipe_dup =
      test::replace_once(pipe, "  - {op: kernel, name: work, seconds: 0.5}",
                         "  - {op: kernel, name: work, seconds: 0.5, seconds: 1}");
  expect_dup([](const std::string& p) { model::load_pipeline(p); }, d.file("p.yaml", pipe_dup),
             test::line_of(pipe_dup, "seconds: 1}"), "steps[3].seconds");
  // The same key in two different maps is fine.
  BOOST_CHECK_NO_THROW(model::load_pipeline(d.file("q.yaml", pipe)));
}

BOOST_AUTO_TEST_CASE(byte_units_mean_what_they_say) {
  // System: parse_bytes on every unit, with and without a space. Expectation: kB/MB/GB/TB are
  // powers of 10, KiB/MiB/GiB/TiB powers of 2, plain numbers and B are bytes; anything else is
  // rejected. Exact.
  struct Case {
    const char* text;
    std::uint64_t bytes;
  } cases[] = {
      {"16 GB", 16000000000ull}, {"16GB", 16000000000ull}, {"16 GiB", 17179869184ull},
      {"16GiB", 17179869184ull}, {"1kB", 1000ull},         {"1 KiB", 1024ull},
      {"3 MB", 3000000ull},      {"3MiB", 3ull << 20},     {"2TB", 2000000000000ull},
      {"2 TiB", 2ull << 40},     {"0.5GiB", 1ull << 29},   {"4096", 4096ull},
      {"1e9", 1000000000ull},    {"512 B", 512ull},
  };
  for (const auto& c : cases) {
    std::uint64_t b = 0;
    BOOST_TEST_CONTEXT(c.text) {
      BOOST_TEST(yaml::parse_bytes(c.text, b));
      BOOST_TEST(b == c.bytes);
    }
  }
  for (const char* bad : {"16 gb", "16 Gb", "16 G", "16 KB", "GiB", "-1GiB", "16 GiBs"}) {
    std::uint64_t b = 0;
    BOOST_TEST(!yaml::parse_bytes(bad, b), bad);
  }
  // Through a scenario: vram 16 GB is 16e9 B, 16 GiB is 2^34 B.
  std::string scn = test::read_text(test::kTinyScenario);
  scn = test::replace_once(
      scn, "calibration: calibration_synthetic.yaml",
      "calibration: " + std::filesystem::absolute(test::kSyntheticCalibration).string());
  test::TempDir d("units");
  BOOST_TEST(model::load_scenario(d.file("a.yaml", scn)).vram == 17179869184.0);
  BOOST_TEST(
      model::load_scenario(d.file("b.yaml", test::replace_once(scn, "vram: 16GiB", "vram: 16 GB")))
          .vram == 16e9);
}

BOOST_AUTO_TEST_CASE(an_msm_takes_the_curve_measured_in_its_pipelines_workspace) {
  // System: the scenario loader on the tiny scenario (2^20, the default pipeline: msm_scratch n x
  // 40.5 B, the MSM's workspace, 41 B a point rounded), key points streamed or resident;
  // calibrations with a curve for one workspace (12 ms at 2^20): msm_g1_streamed_ws41 / _ws68
  // beside msm_g1_streamed (30 ms) when streamed, msm_g1_ws41 / _ws68 beside the synthetic msm_g1
  // when resident. Expectation: the msm_h step (kernel msm_g1) takes 12 ms where the curve of its
  // own workspace exists (ws41), and the mode's general curve where only another workspace's
  // does (ws68). Exact (1e-12 relative).
  test::TempDir d("ws_curves");
  for (const bool streamed : {true, false})
    for (const char* ws : {"41", "68"}) {
      const std::string anchor = "  msm_g1:\n";
      const std::string curve = std::string(streamed ? "msm_g1_streamed_ws" : "msm_g1_ws") + ws;
      const std::string cal =
          d.file(curve + ".yaml",
                 test::replace_once(
                     test::read_text(test::kSyntheticCalibration), anchor,
                     "  msm_g1_streamed:\n"
                     "    - {log2_n: 20, value: 30, unit: ms, source: \"synthetic\"}\n  " +
                         curve +
                         ":\n"
                         "    - {log2_n: 20, value: 12, unit: ms, source: \"synthetic\"}\n" +
                         anchor));
      const auto s = model::load_scenario(
          test::kTinyScenario,
          {{"calibration", cal}, {"workload.key_points", streamed ? "streamed" : "resident"}});
      const double general = streamed ? 0.030 : s.cal.kernels.at("msm_g1").at(1u << 20);
      BOOST_TEST_REQUIRE(general != 0.012);
      bool seen = false;
      for (std::size_t i = 0; i < s.pipe.steps.size(); ++i)
        if (s.pipe.steps[i].name == "msm_h") {
          seen = true;
          BOOST_TEST(s.step_seconds[i] == (std::string(ws) == "41" ? 0.012 : general),
                     boost::test_tools::tolerance(1e-12));
        }
      BOOST_TEST_REQUIRE(seen);
    }
}

// The synthetic calibration with an msm_workspace section whose G1 and G2 need is `per_point` B a
// point at 2^16-2^22, in a scratch file of `d`.
std::string calibration_with_msm_workspace(const test::TempDir& d, double per_point) {
  std::string section = "msm_workspace:\n";
  for (const char* curve : {"g1", "g2"}) {
    section += fmt::format("  {}:\n", curve);
    for (int log_n = 16; log_n <= 22; ++log_n)
      section += fmt::format("    - {{log2_n: {}, value: {}, unit: B, source: \"synthetic\"}}\n",
                             log_n, std::llround(per_point * std::exp2(log_n)));
  }
  return d.file(fmt::format("cal_ws{}.yaml", per_point),
                test::read_text(test::kSyntheticCalibration) + section);
}

BOOST_AUTO_TEST_CASE(a_resident_msm_splits_into_the_pieces_its_workspace_fits) {
  // System: the scenario loader on the tiny scenario at 2^22 (the default pipeline: msm_scratch
  // n x 40.5 B = 169.9 MB, the MSMs' workspace), key points resident, on the synthetic
  // calibration with msm_workspace needs of 40, 60 and 700 B a point. Expectation, as the GPU
  // runtime splits (model/msm_split.hpp): 40 B fits whole (1 piece, the curve's time at 2^22);
  // 60 B takes 2 pieces of 2^21 (2 x the curve at 2^21, which differs from the curve at 2^22),
  // with a note; 700 B fits in no split up to 16 pieces (0 pieces, need = 700 B x 2^18) with a
  // note. Streamed key points are never split. Exact (1e-12 relative).
  test::TempDir d("msm_split");
  const auto load = [&](double per_point, const char* key_points) {
    return model::load_scenario(test::kTinyScenario,
                                {{"calibration", calibration_with_msm_workspace(d, per_point)},
                                 {"workload.log2_n", "22"},
                                 {"workload.key_points", key_points}});
  };
  for (const double per_point : {40.0, 60.0, 700.0})
    for (const char* key_points : {"resident", "streamed"}) {
      BOOST_TEST_CONTEXT(per_point << " B a point, " << key_points) {
        const auto s = load(per_point, key_points);
        const bool resident = std::string(key_points) == "resident";
        const int pieces = !resident ? 1 : per_point == 40 ? 1 : per_point == 60 ? 2 : 0;
        int msm_steps = 0;
        for (std::size_t i = 0; i < s.pipe.steps.size(); ++i) {
          const auto& st = s.pipe.steps[i];
          if (st.op != model::StepOp::kernel || !st.kernel.starts_with("msm_")) {
            BOOST_TEST(s.step_msm_pieces[i] == 1, st.name);
            continue;
          }
          ++msm_steps;
          BOOST_TEST(s.step_msm_pieces[i] == pieces, st.name);
          if (!resident) continue;
          const model::Curve& c = s.cal.kernels.at(st.kernel);
          if (pieces == 1)
            BOOST_TEST(s.step_seconds[i] == c.at(std::exp2(22)),
                       boost::test_tools::tolerance(1e-12));
          if (pieces == 2) {
            BOOST_TEST(s.step_seconds[i] == 2 * c.at(std::exp2(21)),
                       boost::test_tools::tolerance(1e-12));
            BOOST_TEST(s.step_seconds[i] != c.at(std::exp2(22)));
          }
          if (pieces == 0) BOOST_TEST(s.step_msm_need[i] == 700.0 * std::exp2(18));
        }
        BOOST_TEST(msm_steps == 4);
        bool noted = false;
        for (const auto& n : s.notes)
          noted = noted || n.find(pieces == 0 ? "does not fit" : "pieces of") != std::string::npos;
        BOOST_TEST(noted == (pieces != 1));
      }
    }
}

BOOST_AUTO_TEST_CASE(a_resident_msm_that_fits_no_split_is_an_out_of_memory) {
  // System: the simulator on the tiny scenario at 2^22, key points resident, msm_workspace 700 B
  // a point (no split of the MSMs fits msm_scratch), then 60 B (2 pieces). Expectation: at 700 B
  // every attempt of every partition ends in an out-of-memory at `msm_workspace` for 700 B x 2^18
  // (the 16-piece need), run.max_retries + 1 attempts each, and no partition is done; at 60 B all
  // are done with none. Exact.
  test::TempDir d("msm_oom");
  const auto run = [&](double per_point) {
    return sim::run_scenario(
        model::load_scenario(test::kTinyScenario,
                             {{"calibration", calibration_with_msm_workspace(d, per_point)},
                              {"workload.log2_n", "22"},
                              {"workload.key_points", "resident"}}),
        false);
  };
  const auto none = run(700), split = run(60);
  BOOST_TEST(none.summary.partitions_done == 0);
  BOOST_TEST(none.summary.partitions_lost == none.summary.partitions_total);
  BOOST_TEST(none.summary.ooms.size() ==
             static_cast<std::size_t>(none.summary.partitions_total) * 3u);  // max_retries 2
  for (const auto& o : none.summary.ooms) {
    BOOST_TEST(o.where == "msm_workspace");
    BOOST_TEST(o.bytes == static_cast<std::uint64_t>(700.0 * std::exp2(18)));
  }
  BOOST_TEST(split.summary.partitions_done == split.summary.partitions_total);
  BOOST_TEST(split.summary.ooms.empty());
}

BOOST_AUTO_TEST_CASE(a_streamed_msm_runs_in_the_chunks_the_runtime_picks) {
  // System: the scenario loader on two grid rows at 2^27 (streamed key points, msm_scratch 40.5 B
  // a point) with session i's calibration (data/calibration/h100-2026-12-07c.yaml, the first with
  // msm_workspace) and with session h's (without it). Expectation: the G1 MSMs run in 8 chunks
  // (2^24 points) and the G2 MSM of row 26 in 16 (2^23), the chunks the same session's probe
  // measured the streamed MSMs with (msm_streaming chunk_points); without msm_workspace, 1.
  // Exact.
  const auto chunks = [](const char* scenario, const char* cal, const char* step) {
    const auto s = model::load_scenario(scenario, {{"calibration", cal}});
    for (std::size_t i = 0; i < s.pipe.steps.size(); ++i)
      if (s.pipe.steps[i].name == step) return s.step_stream_chunks[i];
    return -1;
  };
  const std::string i_cal =
      std::filesystem::absolute("data/calibration/h100-2026-12-07c.yaml").string();
  const std::string h_cal =
      std::filesystem::absolute("data/calibration/h100-2026-12-07b.yaml").string();
  const char* naive = "data/scenarios/gpu/e02_one_worker_16g_naive.yaml";
  const char* b_g2 = "data/scenarios/gpu/e03_two_workers_24g_tiers_b_g2_gpu.yaml";
  BOOST_TEST(chunks(naive, i_cal.c_str(), "msm_h") == 8);
  BOOST_TEST(chunks(naive, i_cal.c_str(), "msm_l") == 8);
  BOOST_TEST(chunks(b_g2, i_cal.c_str(), "msm_b_g2") == 16);
  BOOST_TEST(chunks(naive, h_cal.c_str(), "msm_h") == 1);
}

BOOST_AUTO_TEST_CASE(a_workers_stager_and_executor_are_two_threads_to_the_driver) {
  // System: the simulator on grid row 30 (one worker, 16 GiB, naive; 10 partitions at 2^27) with
  // session i's calibration, recorded and not. The stager retries partitions that cannot fit, a
  // 12 GiB registration and unregistration back to back, beside the executor's first partition.
  // Expectation: the same makespan recorded or not (the driver's hand-off window tells the
  // threads apart by their track ids, interned either way), exact; 8 partitions lost and 26
  // out-of-memory events, exact (session i's three measured runs: 9 and 27; the model's last
  // retry of partition 8 meets partition 0's freed buffers, the GPU's did not: where partition
  // 0 ends in the retry cycle decides it).
  const auto s = model::load_scenario(
      "data/scenarios/gpu/e02_one_worker_16g_naive.yaml",
      {{"calibration",
        std::filesystem::absolute("data/calibration/h100-2026-12-07c.yaml").string()}});
  const auto quiet = sim::run_scenario(s, false), recorded = sim::run_scenario(s, true);
  BOOST_TEST(quiet.summary.partitions_lost == 8);
  BOOST_TEST(quiet.summary.ooms.size() == 26u);
  BOOST_TEST(recorded.summary.makespan_s == quiet.summary.makespan_s);
}

BOOST_AUTO_TEST_CASE(the_handoff_window_does_not_renew_with_the_holders_calls) {
  // System: the simulator on grid row 26 (two workers, 24 GiB, tiers; both stagers register 12
  // GiB at 0.5 s) with session i's calibration, recorded. Worker 0's registration returns while
  // worker 1's waits for the driver; worker 0 then places its partition (sync, cudaMemGetInfo,
  // trim) and allocates d_a (4 GiB) and d_bc (8 GiB). Expectation: the calls worker 0 starts
  // inside the hand-off window (pinning_handoff after its return) go first, up to its d_a; its
  // d_bc goes behind worker 1's registration; both then allocate their b and c and worker 1's
  // d_bc fails (stage_bc, 8 GiB), as in session i's measured runs r2 and r3 (data/validation/
  // 2026-12-07_eceaf56_h100-staging-i: worker 1, stage_bc, at 1.54 and 1.47 s). Event order
  // exact; the out-of-memory record exact.
  const auto s = model::load_scenario(
      "data/scenarios/gpu/e03_two_workers_24g_tiers_b_g2_gpu.yaml",
      {{"calibration",
        std::filesystem::absolute("data/calibration/h100-2026-12-07c.yaml").string()}});
  const auto r = sim::run_scenario(s, true);
  const auto first = [&](const char* track, const char* name) -> const model::TraceEvent* {
    for (const auto& e : r.trace.events())
      if (r.trace.track_name(e.track) == track && r.trace.event_name(e.name) == name) return &e;
    return nullptr;
  };
  const auto* reg0 = first("gpu0/w0/stager", "host_register");
  const auto* reg1 = first("gpu0/w1/stager", "host_register");
  const auto* d_a0 = first("gpu0/w0/stager", "alloc_d_a");
  const auto* d_bc0 = first("gpu0/w0/stager", "alloc_d_bc");
  BOOST_REQUIRE(reg0 && reg1 && d_a0 && d_bc0);
  BOOST_TEST(reg0->t_end < reg1->t_end);      // worker 0's registration returned first
  BOOST_TEST(d_a0->t_start < reg1->t_end);    // its d_a went inside the window
  BOOST_TEST(d_bc0->t_start >= reg1->t_end);  // its d_bc behind worker 1's registration
  BOOST_REQUIRE(!r.summary.ooms.empty());
  BOOST_TEST(r.summary.ooms.front().worker == 1);
  BOOST_TEST(r.summary.ooms.front().where == "stage_bc");
  BOOST_TEST(r.summary.ooms.front().bytes == std::uint64_t{8} << 30);
}

BOOST_AUTO_TEST_CASE(streamed_key_points_move_over_the_link_during_the_msm) {
  // System: the simulator on the tiny scenario (one worker), key points streamed vs resident.
  // Expectation: resident, an MSM step takes its curve's time; streamed (no _streamed curve in
  // this calibration), it takes at least its points' transfer (n x 104 B at the pinned rate) and
  // the H2D link carries those bytes too. Tolerance: 1e-9 relative.
  const std::string cal = std::filesystem::absolute(test::kSyntheticCalibration).string();
  auto load = [&](const char* kp) {
    return model::load_scenario(
        test::kTinyScenario,
        {{"calibration", cal}, {"gpus.workers_per_gpu", "1"}, {"workload.key_points", kp}});
  };
  const auto res = load("resident"), str = load("streamed");
  const auto rr = sim::run_scenario(res, false), rs = sim::run_scenario(str, false);
  double stream_bytes = 0;
  for (std::size_t i = 0; i < str.pipe.steps.size(); ++i) {
    const auto& st = str.pipe.steps[i];
    BOOST_TEST(res.step_stream_bytes[i] == 0.0);
    if (st.op != model::StepOp::kernel || (st.kernel != "msm_g1" && st.kernel != "msm_g1_porep")) {
      BOOST_TEST(str.step_stream_bytes[i] == 0.0, st.name);
      continue;
    }
    const double bytes = std::exp2(20) * model::kKeyPointBytes;
    BOOST_TEST(str.step_stream_bytes[i] == bytes, boost::test_tools::tolerance(1e-9));
    stream_bytes += bytes;
    const double transfer = bytes / str.cal.pcie_bandwidth(true, true, bytes);
    const auto& pr = rr.summary.phases.at(st.name);
    const auto& ps = rs.summary.phases.at(st.name);
    BOOST_TEST(pr.total_s / pr.count >= res.step_seconds[i] * (1 - 1e-9), st.name);
    BOOST_TEST(ps.total_s / ps.count >= std::max(str.step_seconds[i], transfer) * (1 - 1e-9),
               st.name);
  }
  BOOST_TEST(stream_bytes > 0);
  const double moved_r = rr.summary.h2d_utilisation[0] * rr.summary.makespan_s;
  const double moved_s = rs.summary.h2d_utilisation[0] * rs.summary.makespan_s;
  const double partitions = static_cast<double>(rs.summary.partitions_done);
  BOOST_TEST((moved_s - moved_r) * str.cal.h2d.aggregate == stream_bytes * partitions,
             boost::test_tools::tolerance(1e-6));
}

BOOST_AUTO_TEST_CASE(b_g2_on_the_gpu_streams_g2_points) {
  // System: the scenario loader on the tiny scenario with the pipeline that runs B_G2 on the GPU
  // (data/pipelines/supraseal_c2_b_g2_gpu.yaml, kernel msm_g2_porep; its time given under
  // phases, as the synthetic calibration has no G2 curve), key points streamed. Expectation: the
  // msm_b_g2 step streams n x 200 B (ec::G2Affine), each G1 MSM n x 104 B; no cpu step is left.
  // Exact.
  auto s = model::load_scenario(
      test::kTinyScenario,
      {{"calibration", std::filesystem::absolute(test::kSyntheticCalibration).string()},
       {"pipeline",
        std::filesystem::absolute("data/pipelines/supraseal_c2_b_g2_gpu.yaml").string()},
       {"workload.key_points", "streamed"},
       {"phases", "{msm_b_g2: 0.01}"}});
  const double n = std::exp2(20);
  int g2 = 0, g1 = 0;
  for (std::size_t i = 0; i < s.pipe.steps.size(); ++i) {
    const auto& st = s.pipe.steps[i];
    BOOST_TEST((st.op != model::StepOp::cpu), st.name);
    if (st.kernel == "msm_g2_porep") {
      ++g2;
      BOOST_TEST(s.step_stream_bytes[i] == n * model::kG2KeyPointBytes);
    } else if (st.kernel == "msm_g1" || st.kernel == "msm_g1_porep") {
      ++g1;
      BOOST_TEST(s.step_stream_bytes[i] == n * model::kKeyPointBytes);
    }
  }
  BOOST_TEST(g2 == 1);
  BOOST_TEST(g1 == 4);
}

BOOST_AUTO_TEST_CASE(the_provers_resident_memory_comes_off_the_card) {
  // System: the tiny scenario (embedded supraseal_c2 pipeline: resident NTT tables n*329/20 B,
  // synthetic calibration: 0.5 GiB context overhead, 16 GiB card) at 2^20, key points streamed
  // and resident. Expectation: Scenario::resident_bytes is the tables (streamed) plus n x 104 B
  // (resident); the simulated card's free memory at its first sample is 16 GiB - 0.5 GiB - that,
  // as the GPU runtime's ballast leaves it. Exact to the byte (1 B rounding of the expression).
  const double n = std::exp2(20), tables = std::round(n * 329 / 20);
  for (const char* kp : {"streamed", "resident"}) {
    auto s = model::load_scenario(
        test::kTinyScenario,
        {{"calibration", std::filesystem::absolute(test::kSyntheticCalibration).string()},
         {"workload.key_points", kp}});
    const double want = tables + (std::string(kp) == "resident" ? n * model::kKeyPointBytes : 0);
    BOOST_TEST(s.resident_bytes == want, kp);
    const auto r = sim::run_scenario(s, true);
    BOOST_TEST_REQUIRE(!r.trace.memory().empty());
    const double free0 = static_cast<double>(r.trace.memory().front().free);
    BOOST_TEST(std::abs(free0 - (16.0 * model::kGiB - 0.5 * model::kGiB - want)) <= 1.0, kp);
  }
}

BOOST_AUTO_TEST_CASE(worker_start_offset_delays_each_worker_in_turn) {
  // System: the simulator on the tiny scenario (two workers) with run.worker_start_offset.
  // Expectation: +0.25 s: worker 1's first stager or executor event starts at >= 0.25 s, worker
  // 0's at < 0.25 s; -0.25 s: the other way round. Exact on the simulated clock.
  const std::string cal = std::filesystem::absolute(test::kSyntheticCalibration).string();
  for (const char* off : {"0.25", "-0.25"}) {
    auto s = model::load_scenario(test::kTinyScenario,
                                  {{"calibration", cal}, {"run.worker_start_offset", off}});
    BOOST_TEST(s.start_delay(off[0] == '-' ? 0 : 1) == 0.25);
    BOOST_TEST(s.start_delay(off[0] == '-' ? 1 : 0) == 0.0);
    const auto r = sim::run_scenario(s, true);
    double first[2] = {1e9, 1e9};
    for (const auto& e : r.trace.events())
      if (e.worker >= 0 && e.worker < 2 && e.kind != model::EventKind::memory)
        first[e.worker] = std::min(first[e.worker], e.t_start);
    const int late = off[0] == '-' ? 0 : 1;
    BOOST_TEST_CONTEXT(off) {
      BOOST_TEST(first[late] >= 0.25);
      BOOST_TEST(first[1 - late] < 0.25);
    }
  }
}

// The synthetic calibration with pinning_serialises_driver and one more host_memory line,
// written into `dir` as `file`; returns its path.
std::string synthetic_with_driver_line(test::TempDir& dir, const std::string& file,
                                       const std::string& line) {
  const std::string anchor = "host_memory:\n";
  return dir.file(
      file,
      test::replace_once(
          test::read_text(test::kSyntheticCalibration), anchor,
          anchor +
              "  pinning_serialises_driver: {value: true, unit: bool, source: \"synthetic\"}\n" +
              "  " + line + "\n"));
}

// ... with `flag` (another host_memory key) set to `on` (on.yaml / off.yaml).
std::string synthetic_with_driver_flag(test::TempDir& dir, const std::string& flag, bool on) {
  return synthetic_with_driver_line(
      dir, on ? "on.yaml" : "off.yaml",
      flag + ": {value: " + (on ? "true" : "false") + ", unit: bool, source: \"synthetic\"}");
}

// The expectation of the with/without tests: with the mechanism no case is early, without it
// at least one is (so the scenario exercises it).
void expect_early_only_without(bool with, int early) {
  if (with)
    BOOST_TEST(early == 0);
  else
    BOOST_TEST(early > 0);
}

// The tiny scenario at 6 partitions of 2^24 with the calibration at `path`.
model::Scenario tiny_6_at_24(const std::string& path) {
  return model::load_scenario(
      test::kTinyScenario,
      {{"calibration", path}, {"workload.partitions", "6"}, {"workload.log2_n", "24"}});
}

// An interval of one worker (s, simulated clock).
struct WorkerSpan {
  double t0, t1;
  int worker;
};

// The driver holds of a run's pinning calls named `names`: the last `cost` seconds of each
// event (an event starts at the call's issue, before any wait for the driver).
std::vector<WorkerSpan> pinning_holds(const model::Scenario& s, const model::Trace& t,
                                      std::initializer_list<const char*> names) {
  std::vector<WorkerSpan> v;
  for (const auto& e : t.events()) {
    const std::string& n = t.event_name(e.name);
    for (const char* want : names)
      if (n == want) {
        const auto& cost = n == "host_register" ? s.cal.host_register : s.cal.host_unregister;
        v.push_back({e.t_end - cost.at(static_cast<double>(e.bytes)), e.t_end, e.worker});
      }
  }
  return v;
}

// The synthetic calibration with one more device_memory.sync_allocator flag set to `on`,
// written into `dir` (on.yaml / off.yaml); returns its path.
std::string synthetic_with_allocator_flag(test::TempDir& dir, const std::string& flag, bool on) {
  const std::string anchor = "    free_synchronizes_device:";
  return dir.file(on ? "on.yaml" : "off.yaml",
                  test::replace_once(test::read_text(test::kSyntheticCalibration), anchor,
                                     "    " + flag + ": {value: " + (on ? "true" : "false") +
                                         ", unit: bool, source: \"synthetic\"}\n" + anchor));
}

// The cudaFree calls of a run that waited for the device: from the start of the device wait
// before the free (free_sync_device) to the free event's end, per worker. Every free event counts
// (a free with no wait just before it is not one of these).
std::vector<WorkerSpan> waiting_frees(const model::Trace& t) {
  std::map<std::pair<int, std::int64_t>, double> wait_start;  // (worker, end in ns) -> start
  for (const auto& e : t.events())
    if (t.event_name(e.name) == "free_sync_device")
      wait_start[{e.worker, std::llround(e.t_end * 1e9)}] = e.t_start;
  std::vector<WorkerSpan> v;
  for (const auto& e : t.events())
    if (e.kind == model::EventKind::free)
      if (auto it = wait_start.find({e.worker, std::llround(e.t_start * 1e9)});
          it != wait_start.end())
        v.push_back({it->second, e.t_end, e.worker});
  return v;
}

// The sync-allocator allocation events' names of scenario s ("alloc_<buffer>").
std::set<std::string> sync_alloc_names(const model::Scenario& s) {
  std::set<std::string> v;
  for (const auto& b : s.pipe.buffers)
    if (b.allocator == model::Allocator::sync) v.insert("alloc_" + b.name);
  return v;
}

BOOST_AUTO_TEST_CASE(a_copy_issued_while_another_thread_pins_starts_after_the_pinning) {
  // System: the simulator on the tiny scenario (two workers, 2 proofs of 6 partitions at 2^24), the
  // synthetic calibration with pinning_serialises_driver, with and without
  // pinning_delays_copy_issue (probe driver_waits.copy_pinned_issued_inside: a cudaMemcpyAsync
  // issued during another thread's cudaHostRegister returned only after it). Expectation: with it,
  // every upload or download (host-track copy event, which starts at the copy's issue) that is
  // issued inside another worker's pinning call (host_register / host_unregister event) ends after
  // that call; without it, at least one ends before (the scenario has such overlaps in both runs).
  // Exact on the simulated clock (1 ns).
  test::TempDir d("copy_issue");
  for (bool delays : {false, true}) {
    const std::string path = synthetic_with_driver_flag(d, "pinning_delays_copy_issue", delays);
    auto s = model::load_scenario(
        test::kTinyScenario,
        {{"calibration", path}, {"workload.partitions", "6"}, {"workload.log2_n", "24"}});
    BOOST_TEST_REQUIRE(s.cal.pinning_delays_copy_issue == delays);
    const auto r = sim::run_scenario(s, true);
    struct Span {
      double t0, t1;
      int worker;
    };
    std::vector<Span> pins, copies;
    for (const auto& e : r.trace.events()) {
      const std::string& n = r.trace.event_name(e.name);
      const std::string& track = r.trace.track_name(e.track);
      if (n == "host_register" || n == "host_unregister")
        pins.push_back({e.t_start, e.t_end, e.worker});
      // The copies a worker issues: unstaged uploads and downloads (host track) and the stager's
      // staged groups (copy-stream track); each event starts at the issue.
      const bool issued =
          (track.ends_with("/host") && (n.starts_with("upload_") || n.starts_with("download_"))) ||
          (track.ends_with("/copy_stream") && n.starts_with("staged_uploads_"));
      if (e.kind == model::EventKind::copy && issued && e.t_end > e.t_start)
        copies.push_back({e.t_start, e.t_end, e.worker});
    }
    int inside = 0, ended_before = 0;
    for (const auto& c : copies)
      for (const auto& p : pins)
        if (p.worker != c.worker && c.t0 > p.t0 + 1e-9 && c.t0 < p.t1 - 1e-9) {
          ++inside;
          if (c.t1 < p.t1 - 1e-9) ++ended_before;
        }
    BOOST_TEST_MESSAGE("delays " << delays << ": " << inside << " issued inside, " << ended_before
                                 << " ended before");
    BOOST_TEST_CONTEXT("delays " << delays << ": " << inside << " copies issued inside pinning, "
                                 << ended_before << " ended before it") {
      BOOST_TEST_REQUIRE(inside > 0);
      if (delays)
        BOOST_TEST(ended_before == 0);
      else
        BOOST_TEST(ended_before > 0);
    }
  }
}

// System: the simulator on the tiny scenario (two workers, 6 partitions at 2^24, key points
// resident, tiers with a stream sync, `synthesis_s` of synthesis: chosen so that pinning calls
// overlap the selected kernels: 0.2 s for the MSMs, 0.1 s for the H steps), the synthetic
// calibration with
// pinning_serialises_driver, with and without `flag` (a probe measurement: the kernel, started
// beside another thread's cudaHostRegister, took about the registration's time longer).
// Expectation: without it every kernel step that `is_step` selects (its compute-track event)
// lasts exactly its step's time; with it none is shorter, and those that overlap another
// worker's pinning call last longer. Exact on the simulated clock (1 ns).
void check_kernels_stall_beside_pinning(const std::string& flag, bool model::Calibration::*field,
                                        const std::function<bool(const std::string&)>& is_step,
                                        const std::string& synthesis_s) {
  test::TempDir d("kernel_stall");
  for (bool stalls : {false, true}) {
    const std::string path = synthetic_with_driver_flag(d, flag, stalls);
    auto s = model::load_scenario(test::kTinyScenario, {{"calibration", path},
                                                        {"workload.partitions", "6"},
                                                        {"workload.log2_n", "24"},
                                                        {"workload.key_points", "resident"},
                                                        {"policy.params.sync", "stream"},
                                                        {"host.synthesis_seconds", synthesis_s}});
    BOOST_TEST_REQUIRE((s.cal.*field) == stalls);
    std::map<std::string, double> step_s;  // selected step name -> its modelled time
    for (std::size_t i = 0; i < s.pipe.steps.size(); ++i)
      if (s.pipe.steps[i].op == model::StepOp::kernel && is_step(s.pipe.steps[i].kernel))
        step_s[s.pipe.steps[i].name] = s.step_seconds[i];
    BOOST_TEST_REQUIRE(!step_s.empty());
    const auto r = sim::run_scenario(s, true);
    struct Span {
      double t0, t1;
      int worker;
    };
    std::vector<Span> pins;
    for (const auto& e : r.trace.events()) {
      const std::string& n = r.trace.event_name(e.name);
      if (n == "host_register" || n == "host_unregister")
        pins.push_back({e.t_start, e.t_end, e.worker});
    }
    int msms = 0, overlapping = 0, longer = 0, shorter = 0, exact = 0;
    for (const auto& e : r.trace.events()) {
      const std::string& n = r.trace.event_name(e.name);
      if (e.kind != model::EventKind::compute || !step_s.contains(n) ||
          !r.trace.track_name(e.track).ends_with("/compute"))
        continue;
      ++msms;
      const double dur = e.t_end - e.t_start, want = step_s.at(n);
      bool over = false;
      for (const auto& p : pins)
        if (p.worker != e.worker && p.t0 < e.t_end - 1e-9 && p.t1 > e.t_start + 1e-9) over = true;
      if (dur < want - 1e-9) ++shorter;
      if (std::abs(dur - want) <= 1e-9) ++exact;
      if (over) {
        ++overlapping;
        if (dur > want + 1e-9) ++longer;
      }
    }
    BOOST_TEST_CONTEXT(flag << " " << stalls << ": " << msms << " kernels, " << overlapping
                            << " overlap a pinning call, " << longer << " of those longer") {
      BOOST_TEST_REQUIRE(msms > 0);
      BOOST_TEST(shorter == 0);
      if (stalls) {
        BOOST_TEST_REQUIRE(overlapping > 0);
        BOOST_TEST(longer > 0);
      } else {
        BOOST_TEST(exact == msms);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(an_msm_makes_no_progress_while_another_worker_pins) {
  // check_kernels_stall_beside_pinning: the MSM steps (msm_*) under pinning_stalls_msm (probe
  // msm_streaming.during_registration).
  check_kernels_stall_beside_pinning(
      "pinning_stalls_msm", &model::Calibration::pinning_stalls_msm,
      [](const std::string& k) { return k.starts_with("msm_"); }, "0.2");
}

BOOST_AUTO_TEST_CASE(an_h_step_makes_no_progress_while_another_worker_pins) {
  // check_kernels_stall_beside_pinning: the H steps (h_input, coset_intt) under pinning_stalls_h
  // (probe h_during_registration).
  check_kernels_stall_beside_pinning(
      "pinning_stalls_h", &model::Calibration::pinning_stalls_h,
      [](const std::string& k) { return k == "h_input" || k == "coset_intt"; }, "0.1");
}

BOOST_AUTO_TEST_CASE(a_call_that_waited_for_pinning_resumes_after_the_handoff) {
  // System: the simulator on the tiny scenario (two workers, 6 partitions at 2^24), the synthetic
  // calibration with pinning_serialises_driver, with pinning_handoff 0 and 20 ms (probe
  // driver_waits.*.handoff_malloc: the pinning thread's next call goes first; the waiter returns
  // after it). Expectation: with 20 ms, every cudaMalloc (alloc event of a sync-allocator buffer,
  // which starts at the call's issue) issued while another worker's cudaHostRegister holds the
  // driver ends at least 20 ms after that call; with 0, at least one ends sooner (the scenario
  // has such overlaps).
  // Exact on the simulated clock (1 ns).
  test::TempDir d("handoff");
  constexpr double kHandoff = 0.020;  // s
  for (double handoff : {0.0, kHandoff}) {
    const auto s = tiny_6_at_24(synthetic_with_driver_line(
        d, handoff > 0 ? "on.yaml" : "off.yaml",
        fmt::format("pinning_handoff: {{value: {}, unit: s, source: \"synthetic\"}}", handoff)));
    BOOST_TEST_REQUIRE(s.cal.pinning_handoff_s == handoff);
    const auto allocs = sync_alloc_names(s);
    BOOST_TEST_REQUIRE(!allocs.empty());
    const auto r = sim::run_scenario(s, true);
    const auto holds = pinning_holds(s, r.trace, {"host_register"});
    int inside = 0, early = 0;
    for (const auto& e : r.trace.events()) {
      if (e.kind != model::EventKind::alloc || !allocs.contains(r.trace.event_name(e.name)))
        continue;
      for (const auto& p : holds)
        if (p.worker != e.worker && e.t_start > p.t0 + 1e-9 && e.t_start < p.t1 - 1e-9) {
          ++inside;
          if (e.t_end < p.t1 + kHandoff - 1e-9) ++early;
        }
    }
    BOOST_TEST_REQUIRE(inside > 0);
    expect_early_only_without(handoff > 0, early);
  }
}

BOOST_AUTO_TEST_CASE(a_pinning_call_that_waited_for_pinning_takes_the_driver_after_the_handoff) {
  // System: the simulator on the tiny scenario (two workers, 6 partitions at 2^24), the synthetic
  // calibration with pinning_serialises_driver, with pinning_handoff 0 and 20 ms. Expectation:
  // a pinning call (cudaHostRegister, cudaHostUnregister) issued while another worker's pinning
  // call holds the driver waits for that call, and
  // then (with 20 ms) lets the releasing thread's next call go first: it ends no sooner than
  // the other call's end + 20 ms + its own cost; with 0, at least one such call ends sooner
  // (the scenario has such overlaps). Exact on the simulated clock (1 ns).
  test::TempDir d("handoff_pinning");
  constexpr double kHandoff = 0.020;  // s
  for (double handoff : {0.0, kHandoff}) {
    const auto s = tiny_6_at_24(synthetic_with_driver_line(
        d, handoff > 0 ? "on.yaml" : "off.yaml",
        fmt::format("pinning_handoff: {{value: {}, unit: s, source: \"synthetic\"}}", handoff)));
    const auto r = sim::run_scenario(s, true);
    // Issue and end of each pinning call, and the hold (its last `cost` seconds) beside it.
    std::vector<WorkerSpan> calls;
    for (const auto& e : r.trace.events()) {
      const std::string& n = r.trace.event_name(e.name);
      if (n == "host_register" || n == "host_unregister")
        calls.push_back({e.t_start, e.t_end, e.worker});
    }
    const auto holds = pinning_holds(s, r.trace, {"host_register", "host_unregister"});
    BOOST_TEST_REQUIRE(holds.size() == calls.size());
    int waited = 0, early = 0;
    for (std::size_t a = 0; a < calls.size(); ++a)
      for (std::size_t b = 0; b < calls.size(); ++b) {
        const WorkerSpan &w = calls[a], &p = holds[b];
        const double cost_w = holds[a].t1 - holds[a].t0;
        if (p.worker != w.worker && w.t0 > p.t0 - 1e-9 && w.t0 < p.t1 - 1e-9 &&
            w.t1 > p.t1) {  // w was issued while p held the driver (the same instant counts)
          ++waited;
          if (w.t1 < p.t1 + kHandoff + cost_w - 1e-9) ++early;
        }
      }
    BOOST_TEST_REQUIRE(waited > 0);
    expect_early_only_without(handoff > 0, early);
  }
}

BOOST_AUTO_TEST_CASE(a_policys_free_memory_read_waits_for_another_threads_pinning) {
  // System: the simulator on the tiny scenario (two workers, 6 partitions at 2^24, tiers: the
  // policy reads cudaMemGetInfo to place), the synthetic calibration with
  // pinning_serialises_driver, with and without pinning_delays_meminfo (probe
  // driver_waits.meminfo_no_sync: a cudaMemGetInfo issued inside another thread's
  // cudaHostRegister returned only after it). Expectation: with it, every placement decision
  // (policy_place event, the decision's blocking calls included) that starts while another
  // worker's cudaHostRegister holds the driver ends no earlier than that call; without it, at
  // least one ends sooner (the scenario has such overlaps). Exact on the simulated clock (1 ns).
  test::TempDir d("meminfo_gate");
  for (bool on : {false, true}) {
    const auto s = tiny_6_at_24(synthetic_with_driver_flag(d, "pinning_delays_meminfo", on));
    BOOST_TEST_REQUIRE(s.cal.pinning_delays_meminfo == on);
    const auto r = sim::run_scenario(s, true);
    const auto holds = pinning_holds(s, r.trace, {"host_register"});
    int inside = 0, early = 0;
    for (const auto& e : r.trace.events()) {
      if (r.trace.event_name(e.name) != "policy_place") continue;
      for (const auto& h : holds)
        if (h.worker != e.worker && e.t_start > h.t0 - 1e-9 && e.t_start < h.t1 - 1e-9) {
          ++inside;
          if (e.t_end < h.t1 - 1e-9) ++early;
        }
    }
    BOOST_TEST_REQUIRE(inside > 0);
    expect_early_only_without(on, early);
  }
}

BOOST_AUTO_TEST_CASE(an_unknown_memory_samples_mode_is_rejected_with_its_key) {
  // System: the scenario loader, run.memory_samples given "cudaMemGetInfo" (neither driver nor
  // pool). Expectation: an InputError naming the key and the value; default: driver. Exact.
  BOOST_TEST(
      (model::load_scenario(test::kTinyScenario).memory_samples == model::MemorySamples::driver));
  try {
    (void)model::load_scenario(test::kTinyScenario, {{"run.memory_samples", "cudaMemGetInfo"}});
    BOOST_FAIL("expected an InputError");
  } catch (const InputError& e) {
    BOOST_TEST(e.key() == "run.memory_samples");
    BOOST_TEST(std::string(e.what()).find("cudaMemGetInfo") != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(a_runtime_that_samples_the_pool_makes_no_driver_reads) {
  // System: the simulator on the synthetic scenario s1 (two workers; per partition, inside the
  // lock: cudaMalloc, a pinned upload, a spin kernel, cudaFree; cudaHostRegister per partition;
  // the `pinned` control, which reads no free memory), the synthetic calibration with
  // pinning_serialises_driver, with and without pinning_delays_meminfo, and run.memory_samples
  // driver or pool. Expectation: with the flag, `driver` (the runtime reads cudaMemGetInfo after
  // each allocation and free) changes the run; `pool` (it reads the pool's attributes) gives
  // exactly the run without the flag: same events at the same times, same makespan. Exact on the
  // simulated clock (1 ns).
  test::TempDir d("memory_samples");
  auto run = [&](bool flag, const char* samples) {
    const auto s = model::load_scenario(
        "data/scenarios/gpu/synthetic/s1_copy_behind_pinning.yaml",
        {{"calibration", synthetic_with_driver_flag(d, "pinning_delays_meminfo", flag)},
         {"run.memory_samples", samples}});
    BOOST_TEST_REQUIRE((s.memory_samples == model::MemorySamples::pool) ==
                       (std::string(samples) == "pool"));
    return sim::run_scenario(s, true);
  };
  // Two traces are the same run: the same events, each at the same times (1 ns).
  const auto same = [](const model::Trace& a, const model::Trace& b) {
    if (a.events().size() != b.events().size()) return false;
    for (std::size_t i = 0; i < a.events().size(); ++i) {
      const auto &x = a.events()[i], &y = b.events()[i];
      if (a.event_name(x.name) != b.event_name(y.name) || std::abs(x.t_start - y.t_start) > 1e-9 ||
          std::abs(x.t_end - y.t_end) > 1e-9)
        return false;
    }
    return true;
  };
  const auto off = run(false, "driver");
  const auto driver = run(true, "driver");
  const auto pool = run(true, "pool");
  BOOST_TEST(!same(driver.trace, off.trace));
  BOOST_TEST(same(pool.trace, off.trace));
  BOOST_TEST(std::abs(pool.summary.makespan_s - off.summary.makespan_s) < 1e-9);
}

BOOST_AUTO_TEST_CASE(no_cudamalloc_completes_inside_another_workers_pinning_hold) {
  // System: the simulator on the tiny scenario (two workers, 6 partitions at 2^24), the synthetic
  // calibration with pinning_serialises_driver and a 20 ms hand-off. Expectation: no sync
  // cudaMalloc (alloc event of a sync-allocator buffer) ends strictly inside the driver hold of
  // another worker's cudaHostRegister (its last `cost` seconds): a call that waited resumes only
  // when no pinning call holds the driver, also when the hand-off window's owner took it again.
  // Exact on the simulated clock (1 ns).
  test::TempDir d("handoff_again");
  const auto s = tiny_6_at_24(synthetic_with_driver_line(
      d, "on.yaml", "pinning_handoff: {value: 0.020, unit: s, source: \"synthetic\"}"));
  const auto r = sim::run_scenario(s, true);
  const auto holds = pinning_holds(s, r.trace, {"host_register"});
  const auto allocs = sync_alloc_names(s);
  BOOST_TEST_REQUIRE(!holds.empty());
  int checked = 0, inside = 0;
  for (const auto& e : r.trace.events()) {
    if (!allocs.contains(r.trace.event_name(e.name))) continue;
    ++checked;
    for (const auto& h : holds)
      if (h.worker != e.worker && e.t_end > h.t0 + 1e-9 && e.t_end < h.t1 - 1e-9) ++inside;
  }
  BOOST_TEST_REQUIRE(checked > 0);
  BOOST_TEST(inside == 0);
}

BOOST_AUTO_TEST_CASE(a_sync_right_after_a_registration_finds_the_paced_msm_off_the_device) {
  // System: the simulator on grid row 26 (e03, two workers, 24 GiB, tiers, B_G2 on the GPU, key
  // points streamed: the MSMs are host-paced) with session h's H100 calibration, and the same
  // with pinning_stalls_paced_steps and pinning_stalls_msm off. Expectation: with them, every
  // device sync a stager issues as its own cudaHostRegister returns (the tiers policy syncs
  // before it places) takes only cudaDeviceSynchronize's own cost, although a streamed MSM is
  // mid-step: the MSM launched nothing while the driver was held, and its chunk in flight is
  // done (the staging run of session h: 0.1 ms beside an H MSM with 1 s left); at least one such
  // sync has an MSM in flight. Without them (the MSM is one kernel that ignores the driver), at
  // least one such sync waits for the MSM (> 10 ms). Exact on the simulated clock (1 ns).
  test::TempDir d("paced_idle");
  const std::string committed =
      std::filesystem::absolute("data/calibration/h100-2026-12-07b.yaml").string();
  std::string off = test::read_text(committed);
  for (const char* flag :
       {"pinning_stalls_paced_steps: {value: true", "pinning_stalls_msm: {value: true"}) {
    std::string from = flag, to = flag;
    to.replace(to.find("true"), 4, "false");
    off = test::replace_once(off, from, to);
  }
  for (bool paced : {true, false}) {
    const auto s =
        model::load_scenario("data/scenarios/gpu/e03_two_workers_24g_tiers_b_g2_gpu.yaml",
                             {{"calibration", paced ? committed : d.file("off.yaml", off)}});
    BOOST_TEST_REQUIRE(s.cal.pinning_stalls_paced_steps == paced);
    const auto r = sim::run_scenario(s, true);
    std::vector<WorkerSpan> registrations, msms;
    for (const auto& e : r.trace.events()) {
      const std::string& n = r.trace.event_name(e.name);
      if (n == "host_register") registrations.push_back({e.t_start, e.t_end, e.worker});
      if (n.starts_with("msm_") && r.trace.track_name(e.track).ends_with("compute"))
        msms.push_back({e.t_start, e.t_end, e.worker});
    }
    const double own_cost = s.cal.device_synchronize.at(0);
    int after_registration = 0, beside_msm = 0, waited = 0;
    for (const auto& e : r.trace.events()) {
      if (r.trace.event_name(e.name) != "sync_device") continue;
      bool right_after = false;
      for (const auto& g : registrations)
        right_after |= g.worker == e.worker && e.t_start >= g.t1 - 1e-9 &&
                       e.t_start <= g.t1 + std::max(s.cal.pinning_handoff_s, 0.0) + 1e-9;
      if (!right_after) continue;
      ++after_registration;
      for (const auto& m : msms)
        if (m.t0 < e.t_start - 1e-9 && m.t1 > e.t_start + 0.01) ++beside_msm;
      if (e.t_end - e.t_start > own_cost + 0.01) ++waited;
    }
    BOOST_TEST_REQUIRE(after_registration > 0);
    if (paced) {
      BOOST_TEST(beside_msm > 0);
      BOOST_TEST(waited == 0);
    } else {
      BOOST_TEST(waited > 0);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_free_that_waits_for_the_device_holds_the_driver) {
  // System: the simulator on the synthetic scenario s2 (two workers, no lock; per partition:
  // cudaMalloc, an upload, a 0.5 s spin kernel, cudaFree, so each worker's cudaFree waits for the
  // other's kernel), the synthetic calibration (cudaFree synchronizes the device), with and
  // without free_holds_driver_while_waiting (probe free_holds_driver). Expectation: with it, the
  // two workers' free holds (the device wait before the free, free_sync_device, and the free
  // itself) never overlap: the driver serialises them; without it, at least two do (the workers
  // free at the same instant); every partition is done either way. Exact on the simulated clock
  // (1 ns).
  test::TempDir d("free_holds");
  for (bool on : {false, true}) {
    const std::string cal = synthetic_with_allocator_flag(d, "free_holds_driver_while_waiting", on);
    const auto s =
        model::load_scenario("data/scenarios/gpu/synthetic/s2_free_waits_for_other_kernels.yaml",
                             {{"calibration", cal}});
    BOOST_TEST_REQUIRE(s.cal.free_holds_driver_while_waiting == on);
    const auto r = sim::run_scenario(s, true);
    BOOST_TEST(r.summary.partitions_done == r.summary.partitions_total);
    const auto holds = waiting_frees(r.trace);  // s2's only frees: free_d_a
    BOOST_TEST_REQUIRE(holds.size() == static_cast<std::size_t>(r.summary.partitions_done));
    int overlapping = 0;
    for (std::size_t i = 0; i < holds.size(); ++i)
      for (std::size_t j = i + 1; j < holds.size(); ++j)
        if (holds[i].worker != holds[j].worker &&
            std::min(holds[i].t1, holds[j].t1) - std::max(holds[i].t0, holds[j].t0) > 1e-9)
          ++overlapping;
    expect_early_only_without(on, overlapping);
  }
}

BOOST_AUTO_TEST_CASE(a_free_that_waits_for_the_device_blocks_other_workers_launches) {
  // System: the simulator on the tiny scenario (two workers, 6 partitions at 2^24) with the naive
  // policy on a 3 GiB card: a stager whose pre-staging fails frees what it placed (cudaFree,
  // which waits for the device) while the other worker's kernels run; the synthetic calibration,
  // with and without free_blocks_launches (probe free_holds_driver, launch row). Expectation: with
  // it, no kernel of one worker starts on the GPU strictly inside the other worker's free (from
  // its device wait's start, free_sync_device, to the free's end); without it, at least one does.
  // Exact on the simulated clock (1 ns).
  test::TempDir d("free_blocks_launches");
  for (bool on : {false, true}) {
    const std::string cal = synthetic_with_allocator_flag(d, "free_blocks_launches", on);
    const auto s = model::load_scenario(test::kTinyScenario,
                                        {{"calibration", cal},
                                         {"workload.partitions", "6"},
                                         {"workload.log2_n", "24"},
                                         {"gpus.vram", "3GiB"},
                                         {"policy.name", "naive"},
                                         {"policy.params", "{pinning: register_per_partition}"}});
    BOOST_TEST_REQUIRE(s.cal.free_blocks_launches == on);
    const auto r = sim::run_scenario(s, true);
    const auto frees = waiting_frees(r.trace);
    BOOST_TEST_REQUIRE(!frees.empty());
    int inside = 0, kernels = 0;
    for (const auto& e : r.trace.events()) {
      if (e.kind != model::EventKind::compute || !r.trace.track_name(e.track).ends_with("/compute"))
        continue;
      ++kernels;
      for (const auto& f : frees)
        if (f.worker != e.worker && e.t_start > f.t0 + 1e-9 && e.t_start < f.t1 - 1e-9) ++inside;
    }
    BOOST_TEST_REQUIRE(kernels > 0);
    expect_early_only_without(on, inside);
  }
}

BOOST_AUTO_TEST_CASE(a_freed_buffer_is_another_threads_from_the_free_calls_start) {
  // System: the simulator on the tiny scenario (two workers, 6 partitions at 2^24), the synthetic
  // calibration with a 50 ms cudaFree, with and without free_releases_before_return (probe
  // free_release: another thread's cudaMalloc that fits only in a running free's memory succeeded
  // before the free returned). Expectation: device memory used drops by a cudaFree's bytes at the
  // free event's start with the flag, at its end without it: for every free event of a
  // sync-allocator buffer there is a memory sample at that instant whose used is at least its
  // bytes below the last sample before it; at the other end not for every free. Exact on the
  // simulated clock (1 ns).
  test::TempDir d("free_release");
  for (bool early : {false, true}) {
    const std::string anchor = "    free_synchronizes_device:";
    std::string cal = test::replace_once(test::read_text(test::kSyntheticCalibration),
                                         "    free: {fixed: {value: 50, unit: us,",
                                         "    free: {fixed: {value: 50, unit: ms,");
    cal = test::replace_once(cal, anchor,
                             std::string("    free_releases_before_return: {value: ") +
                                 (early ? "true" : "false") +
                                 ", unit: bool, source: \"synthetic\"}\n" + anchor);
    const std::string path = d.file(early ? "on.yaml" : "off.yaml", cal);
    auto s = model::load_scenario(
        test::kTinyScenario,
        {{"calibration", path}, {"workload.partitions", "6"}, {"workload.log2_n", "24"}});
    BOOST_TEST_REQUIRE(s.cal.free_releases_before_return == early);
    std::set<std::string> sync_frees;
    for (const auto& b : s.pipe.buffers)
      if (b.allocator == model::Allocator::sync) sync_frees.insert("free_" + b.name);
    const auto r = sim::run_scenario(s, true);
    const auto& mem = r.trace.memory();
    int frees = 0, dropped_at_start = 0, dropped_at_end = 0;
    // Used memory drops by at least `bytes` at instant t (the samples at t against the last one
    // before t).
    const auto drops_at = [&](double t, std::uint64_t bytes) {
      std::uint64_t before = 0, at = ~std::uint64_t{0};
      bool seen_before = false, seen_at = false;
      for (const auto& m : mem) {
        if (m.t < t - 1e-9) {
          before = m.used;
          seen_before = true;
        } else if (m.t <= t + 1e-9) {
          at = std::min(at, m.used);
          seen_at = true;
        }
      }
      return seen_before && seen_at && at + bytes <= before;
    };
    for (const auto& e : r.trace.events()) {
      if (e.kind != model::EventKind::free || !sync_frees.contains(r.trace.event_name(e.name)))
        continue;
      ++frees;
      if (drops_at(e.t_start, e.bytes)) ++dropped_at_start;
      if (drops_at(e.t_end, e.bytes)) ++dropped_at_end;
    }
    BOOST_TEST_REQUIRE(frees > 0);
    BOOST_TEST((early ? dropped_at_start : dropped_at_end) == frees);
    // At the other end only where a free follows at that instant (the pipeline's frees run back
    // to back), not for every free.
    BOOST_TEST((early ? dropped_at_end : dropped_at_start) < frees);
  }
}

BOOST_AUTO_TEST_SUITE_END()
