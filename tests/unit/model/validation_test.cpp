// System: model::validate_scenario on hand-made summaries. Expectation: the measured median,
// range and the model's relative error are computed exactly; each goal's verdict follows its
// rule (range or 5%, same OOM verdict, one 2 MiB granule, 3% per transfer). Tolerance: 1e-12.
#include "model/validation.hpp"

#include <boost/test/unit_test.hpp>

using nlohmann::json;
using prestage::model::validate_scenario;

namespace {
json summary(double makespan, int ooms, int lost, double peak, double upload) {
  json oom = json::array();
  for (int i = 0; i < ooms; ++i) oom.push_back({{"where", "stage_a"}});
  return {
      {"makespan_s", makespan},
      {"throughput_proofs_per_hour", 3600.0 / makespan},
      {"partitions", {{"done", 10 - lost}, {"lost", lost}, {"retried", 0}}},
      {"oom_events", oom},
      {"gpus", json::array({{{"peak_device_memory_used_B", peak},
                             {"peak_device_memory_reserved_B", peak},
                             {"busy_share", 0.5}}})},
      {"workers", json::array({{{"device_wide_wait_s", 0.1}, {"lock_wait_s", 0.2}}})},
      {"phases", {{"upload_a", {{"mean_s", upload}, {"count", 10}, {"total_s", 10 * upload}}}}}};
}
const prestage::model::ValidationFigure& fig(const prestage::model::ScenarioValidation& v,
                                             const std::string& name) {
  for (const auto& f : v.figures)
    if (f.name == name) return f;
  throw std::runtime_error("no figure " + name);
}
}  // namespace

BOOST_AUTO_TEST_CASE(spread_error_and_range_goal) {
  std::vector<json> m = {summary(10, 0, 0, 1e9, 0.1), summary(12, 0, 0, 1e9, 0.1),
                         summary(11, 0, 0, 1e9, 0.1)};
  auto v = validate_scenario("s", "real", m, summary(11.9, 0, 0, 1e9, 0.1));
  const auto& mk = fig(v, "makespan");
  BOOST_TEST(mk.median == 11.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(mk.min == 10.0);
  BOOST_TEST(mk.max == 12.0);
  BOOST_TEST(mk.rel_error == 0.9 / 11.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(mk.pass);  // inside the measured range, though 8% off the median
  BOOST_TEST(v.pass());
  auto far = validate_scenario("s", "real", m, summary(13.0, 0, 0, 1e9, 0.1));
  BOOST_TEST(!fig(far, "makespan").pass);  // outside [10, 12] and 18% off
}

BOOST_AUTO_TEST_CASE(oom_verdicts_memory_granule_and_transfers) {
  std::vector<json> m = {summary(10, 2, 0, 1e9, 0.100), summary(10, 1, 0, 1e9, 0.100)};
  auto v = validate_scenario("s", "real", m, summary(10, 0, 0, 1e9 + 3e6, 0.104));
  BOOST_TEST(!fig(v, "any OOM (events)").pass);         // measured OOMs, the model none
  BOOST_TEST(fig(v, "any partition lost").pass);        // neither side lost one
  BOOST_TEST(!fig(v, "peak device memory used").pass);  // 3 MB > one 2 MiB granule
  BOOST_TEST(!fig(v, "step upload_a (mean)").pass);     // 4% > 3%
  BOOST_TEST(v.failed_goals() == 3);
  auto md = prestage::model::validation_markdown({v});
  BOOST_TEST(md.find("MISSED") != std::string::npos);
  BOOST_TEST(md.find("model misses goals") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(timing_check_flags_a_verdict_that_differs_between_runs) {
  // System: model::timing_check over runs that differ only in timing. Expectation: the same
  // verdicts (OOM or not, lost or not, partitions done) are stable even when makespans differ; one
  // partition more done, or an OOM in one run only, is timing-dependent; the report says so.
  using prestage::model::timing_check;
  auto stable =
      timing_check({"a", "b"}, {summary(10, 2, 0, 1e9, 0.1), summary(10.5, 3, 0, 1e9, 0.1)});
  BOOST_TEST(!stable.dependent());
  BOOST_TEST(stable.makespan.at(1) == 10.5);
  auto done = timing_check({"a", "b"}, {summary(10, 2, 1, 1e9, 0.1), summary(10, 2, 0, 1e9, 0.1)});
  BOOST_TEST(done.dependent());
  auto oom = timing_check(
      {"a", "b", "c"},
      {summary(10, 0, 0, 1e9, 0.1), summary(10, 0, 0, 1e9, 0.1), summary(10, 1, 0, 1e9, 0.1)});
  BOOST_TEST(oom.dependent());
  auto v =
      validate_scenario("s", "real", {summary(10, 0, 0, 1e9, 0.1)}, summary(10, 0, 0, 1e9, 0.1));
  v.model_timing = oom;
  const std::string md = prestage::model::validation_markdown({v});
  BOOST_TEST(md.find("timing-dependent") != std::string::npos);
  BOOST_TEST(prestage::model::validation_json({v})[0]["timing"]["model"]["timing_dependent"] ==
             true);
}

BOOST_AUTO_TEST_CASE(an_allocator_cost_dependent_verdict_is_reported_as_such) {
  // System: a scenario validation whose model runs under scaled allocator costs (model_costs)
  // differ in partitions done, while its start shifts (model_timing) agree. Expectation: the
  // report says "cost-dependent" and not "timing-dependent" for the model; report.json carries
  // timing.model_allocator_costs with timing_dependent true and timing.model with false. Exact.
  using prestage::model::timing_check;
  auto v =
      validate_scenario("s", "real", {summary(10, 0, 0, 1e9, 0.1)}, summary(10, 0, 0, 1e9, 0.1));
  v.model_timing = timing_check({"as given", "shifted"},
                                {summary(10, 0, 0, 1e9, 0.1), summary(10, 0, 0, 1e9, 0.1)});
  v.model_costs = timing_check(
      {"as given", "/ 3", "x 3"},
      {summary(10, 2, 1, 1e9, 0.1), summary(9, 1, 0, 1e9, 0.1), summary(11, 2, 1, 1e9, 0.1)});
  const std::string md = prestage::model::validation_markdown({v});
  BOOST_TEST(md.find("cost-dependent") != std::string::npos);
  BOOST_TEST(md.find("timing-dependent") == std::string::npos);
  const auto j = prestage::model::validation_json({v})[0]["timing"];
  BOOST_TEST(j["model_allocator_costs"]["timing_dependent"] == true);
  BOOST_TEST(j["model"]["timing_dependent"] == false);
}

BOOST_AUTO_TEST_CASE(a_pinned_pool_is_compared_only_where_the_model_has_one) {
  // System: summaries with and without summary.json's pinned_pool. Expectation: the figure
  // exists only when the model's run has a pool; its median and error are exact (1e-12).
  auto pooled = [](double s) {
    json j = summary(10, 0, 0, 1e9, 0.1);
    j["pinned_pool"] = {{"bytes_B", 3e10}, {"cudaMallocHost_s", s}};
    return j;
  };
  auto v =
      validate_scenario("s", "real", {pooled(12.0), pooled(13.0), pooled(14.0)}, pooled(13.65));
  const auto& f = fig(v, "pinned pool cudaMallocHost, before the run");
  BOOST_TEST(f.median == 13.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(f.rel_error == 0.05, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(f.goal.empty());
  auto none =
      validate_scenario("s", "real", {summary(10, 0, 0, 1e9, 0.1)}, summary(10, 0, 0, 1e9, 0.1));
  for (const auto& x : none.figures) BOOST_TEST(x.name.find("pinned pool") == std::string::npos);
}
