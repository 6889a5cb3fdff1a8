// System: the probe's host-side helpers (gpu/probe/stats, gpu/probe/calibration).
// Expectations: the affine fit recovers known latency/bandwidth lines; the calibration writer
// turns raw probe results into a SCHEMA.md file where every quantity has value, unit and source;
// a missing raw key or a bad kernels file is an InputError naming file/line and key; the committed
// H200 calibration is exactly what the writer derives from the committed raw results.
#include <yaml-cpp/yaml.h>

#include <unistd.h>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gpu/probe/calibration.hpp"
#include "gpu/probe/stats.hpp"
#include "model/calibration.hpp"
#include "model/errors.hpp"

using namespace prestage::probe;
using Json = nlohmann::ordered_json;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// A complete raw result with the shape prestage-probe writes (numbers synthetic, round).
Json synthetic_raw() {
  auto fit = [](double fixed, double per_gib) {
    return Json{{"fixed_s", fixed},
                {"per_gib_s", per_gib},
                {"points", 4},
                {"rms_rel_residual", 0.01},
                {"max_rel_residual", 0.02}};
  };
  auto link = [](double bw, double lat) {
    Json rows = Json::array();
    for (std::uint64_t n = 4096; n <= (4ull << 30); n *= 4)
      rows.push_back({{"bytes", n},
                      {"repetitions", 5},
                      {"median_s", lat + n / bw},
                      {"bandwidth", n / (lat + n / bw)}});
    return Json{{"rows", rows}};
  };
  // Two 1 GiB copies at 50 GB/s: queued (second ends at twice the first) or shared (together).
  auto pair = [](bool queued) {
    Json reps = Json::array();
    for (int i = 0; i < 3; ++i)
      reps.push_back({{"a_start_s", 1e-6},
                      {"a_end_s", queued ? 0.0215 : 0.0430},
                      {"b_start_s", 2e-6},
                      {"b_end_s", 0.0430}});
    return Json{
        {"repetitions", reps}, {"median_aggregate_bw", 5.0e10}, {"aggregate_over_solo", 1.0}};
  };
  // Per-size cost rows: time = fixed + per_gib * GiB, as lists of 3 repetitions.
  auto rows = [](std::initializer_list<std::pair<const char*, std::pair<double, double>>> fields) {
    Json out = Json::array();
    for (std::uint64_t n : {64ull << 20, 256ull << 20, 1ull << 30, 4ull << 30}) {
      Json row{{"bytes", n}};
      for (const auto& [name, c] : fields) {
        const double t = c.first + c.second * static_cast<double>(n) / (1ull << 30);
        row[name] = Json::array({t * 0.99, t, t * 1.01});
      }
      out.push_back(row);
    }
    return out;
  };
  auto blocking = [](const char* name, double call, double copy) {
    return Json{{"case", name},          {"bytes", 268435456ull}, {"stream_busy_s", 0.05},
                {"median_call_s", call}, {"median_copy_s", copy}, {"call_s", Json::array({call})}};
  };
  Json r;
  r["schema"] = "prestage-probe-raw/1";
  r["meta"] = {
      {"quick", false},
      {"device", {{"name", "NVIDIA H200"}}},
      {"driver", "580.159.04"},
      {"cuda_runtime", 13000},
      {"date", "2026-11-30"},
      {"commit", "abc123"},
      {"meminfo_at_context_start", {{"free", 149000000000ull}, {"total", 150000000000ull}}}};
  Json& s = r["sections"];
  s["pcie"] = {
      {"method", "m"},
      {"bandwidth",
       {{"h2d", {{"pinned", link(5.3e10, 8e-6)}, {"pageable", link(2.0e10, 2e-5)}}},
        {"d2h", {{"pinned", link(5.4e10, 8e-6)}, {"pageable", link(1.5e10, 2e-5)}}}}},
      {"same_direction_h2d", pair(true)},
      {"same_direction_d2h", pair(false)},
      {"duplex", pair(false)},
      {"pageable_blocking", Json::array({blocking("h2d_pageable_idle_stream", 0.03, 0.03),
                                         blocking("d2h_pageable_idle_stream", 0.02, 0.02),
                                         blocking("h2d_pageable_busy_stream", 0.08, 0.03),
                                         blocking("h2d_pageable_64KiB_busy_stream", 3e-5, 1e-5),
                                         blocking("d2h_pageable_busy_stream", 0.07, 0.02)})},
      {"summary",
       {{"h2d_pageable_blocks_host", true},
        {"d2h_pageable_blocks_host", true},
        {"h2d_pageable_waits_for_stream", false},
        {"d2h_pageable_waits_for_stream", true},
        {"bidirectional_over_sum_of_solo", 0.9},
        {"concurrency_bytes_each", 1ull << 30}}}};
  s["host_memory"]["rows"] = rows({{"host_register_s", {1e-4, 0.04}},
                                   {"host_unregister_s", {1e-4, 0.015}},
                                   {"malloc_host_s", {1e-4, 0.38}},
                                   {"free_host_s", {-1e-3, 0.1}}});  // negative: clamped to 0
  s["granularity"]["summary"] = {{"pool_minimum_reservation", 33554432ull},
                                 {"pool_granularity", 2097152ull},
                                 {"sync_granularity", 2097152ull},
                                 {"sync_granularity_consistent", true}};
  s["sync_allocator_costs"]["rows"] = rows({{"malloc_s", {6e-5, 1e-4}}, {"free_s", {5e-5, 6e-4}}});
  s["device_sync_calls"]["rows"] =
      Json::array({{{"call", "cudaFree"}, {"waited_for_other_stream", true}},
                   {{"call", "cudaMalloc_64MiB"}, {"waited_for_other_stream", false}},
                   {{"call", "cudaHostUnregister_64MiB"}, {"waited_for_other_stream", true}},
                   {{"call", "cudaDeviceSynchronize"}, {"waited_for_other_stream", true}}});
  s["device_sync_calls"]["summary"] = {{"device_synchronize_waits_all_streams", true},
                                       {"free_synchronizes_device", true},
                                       {"kernel_s", 0.1}};
  s["largest_allocation"]["summary"] = {{"sync_largest", 148000000000ull},
                                        {"pool_largest", 148000000000ull}};
  s["pool_costs"]["rows"] = rows({{"malloc_async_cold_s", {1e-5, 1.3e-3}},
                                  {"malloc_async_warm_s", {6e-6, 1e-6}},
                                  {"free_async_call_s", {3e-6, 1e-7}},
                                  {"release_at_stream_sync_s", {1e-5, 1.8e-3}},
                                  {"trim_s", {1e-5, 1.8e-3}}});
  s["pool_defaults"]["summary"] = {{"release_threshold", 0ull}};
  s["pool_release_calls"]["summary"] = {
      {"released_to_os_by", Json::array({"stream_sync", "device_sync"})},
      {"threshold_between_keeps_threshold", true},
      {"threshold_tested_bytes", 4294967296ull}};
  s["pool_reuse"]["summary"] = {{"reuse_same_stream", "immediate"},
                                {"reuse_other_stream", "after_event"}};
  s["pool_vs_cudamalloc"]["trials"] =
      Json::array({{{"name", "idle_pool_threshold_max"},
                    {"cuda_malloc", {{"error", "cudaSuccess"}, {"call_s", 0.26}}}}});
  s["pool_vs_cudamalloc"]["summary"] = {{"cudamalloc_reclaims_idle_pool", false},
                                        {"cudamalloc_reclaims_pending_frees", false},
                                        {"cudamalloc_reclaims_completed_frees_before_sync", false},
                                        {"meminfo_counts_pool_reserved_as_used", true},
                                        {"meminfo_free_while_idle_pool", 1000000000ull},
                                        {"idle_pool_reserved", 147000000000ull},
                                        {"meminfo_free_before_fill", 148000000000ull}};
  s["trim_pending"]["summary"] = {{"trim_with_pending_frees", "skips_pending"}};
  s["oom_sticky"]["summary"] = {{"oom_sticky", false}};
  s["sync_costs"]["summary"] = {{"stream_synchronize_s", 2e-6},
                                {"event_record_sync_s", 4e-6},
                                {"device_synchronize_s", 3e-6},
                                {"repetitions", 101}};
  return r;
}

CalibrationInputs inputs(const Json& raw) {
  CalibrationInputs in;
  in.raw = raw;
  in.raw_file = "raw.json";
  in.raw_ref = "data/measurements/raw.json";
  return in;
}

// Every map with a `value` is a quantity: it must also carry a non-empty unit and source.
int check_quantities(const YAML::Node& n, const std::string& path) {
  int count = 0;
  if (n.IsMap()) {
    if (n["value"]) {
      BOOST_TEST_CONTEXT(path) {
        BOOST_TEST(n["unit"].as<std::string>("") != "");
        BOOST_TEST(n["source"].as<std::string>("") != "");
      }
      return 1;
    }
    for (const auto& kv : n)
      count += check_quantities(kv.second, path + "." + kv.first.as<std::string>());
  } else if (n.IsSequence()) {
    for (std::size_t i = 0; i < n.size(); ++i)
      count += check_quantities(n[i], path + "[" + std::to_string(i) + "]");
  }
  return count;
}

}  // namespace

BOOST_AUTO_TEST_CASE(median_of_odd_and_even_counts) {
  BOOST_TEST(median({3, 1, 2}) == 2.0);
  BOOST_TEST(median({4, 1, 3, 2}) == 2.5);
  BOOST_CHECK_THROW(median({}), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(affine_fit_recovers_latency_and_bandwidth) {
  // System: copy times t = 8 us + bytes / 53 GB/s at 4 KiB .. 4 GiB. Expectation: the relative
  // fit returns that latency and bandwidth. Tolerance: 1e-9 relative (exact data).
  std::vector<double> x, y;
  for (double n = 4096; n <= 4294967296.0; n *= 4) {
    x.push_back(n);
    y.push_back(8e-6 + n / 5.3e10);
  }
  const AffineFit f = fit_affine(x, y, true);
  BOOST_TEST(f.fixed == 8e-6, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(1.0 / f.slope == 5.3e10, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(f.points == 11);
  BOOST_TEST(f.max_rel_residual < 1e-9);
}

BOOST_AUTO_TEST_CASE(relative_fit_keeps_small_sizes_accurate_under_noise) {
  // System: the same line with +/-2% alternating noise. Expectation: the latency (set by the small
  // sizes) stays within 5% and the bandwidth within 3%; an unweighted fit would let the 4 GiB
  // point's noise swamp the microsecond intercept.
  std::vector<double> x, y;
  int i = 0;
  for (double n = 4096; n <= 4294967296.0; n *= 4, ++i) {
    x.push_back(n);
    y.push_back((8e-6 + n / 5.3e10) * (i % 2 ? 1.02 : 0.98));
  }
  const AffineFit f = fit_affine(x, y, true);
  BOOST_TEST(f.fixed == 8e-6, boost::test_tools::tolerance(0.05));
  BOOST_TEST(1.0 / f.slope == 5.3e10, boost::test_tools::tolerance(0.03));
  BOOST_TEST(f.rms_rel_residual > 0.01);
  BOOST_TEST(f.rms_rel_residual < 0.03);
}

BOOST_AUTO_TEST_CASE(affine_fit_rejects_degenerate_input) {
  BOOST_CHECK_THROW(fit_affine({1.0}, {1.0}, false), std::invalid_argument);
  BOOST_CHECK_THROW(fit_affine({1.0, 1.0}, {1.0, 2.0}, false), std::invalid_argument);
  BOOST_CHECK_THROW(fit_affine({1.0, 2.0}, {0.0, 1.0}, true), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(gcd_of_allocation_drops) {
  // 2 MiB + 1 -> 4 MiB, 4 MiB + 1 -> 6 MiB, 64 MiB + 1 -> 66 MiB: a 2 MiB page.
  BOOST_TEST(gcd_bytes({4ull << 20, 6ull << 20, 66ull << 20, 0}) == (2ull << 20));
  BOOST_TEST(gcd_bytes({}) == 0u);
}

BOOST_AUTO_TEST_CASE(calibration_round_trip_has_provenance_everywhere) {
  const std::string text = build_calibration_yaml(inputs(synthetic_raw()));
  const YAML::Node y = YAML::Load(text);
  BOOST_TEST(y["schema"].as<std::string>() == "prestage-calibration/1");
  BOOST_TEST(y["device"]["probe_commit"].as<std::string>() == "abc123");
  const YAML::Node bw = y["pcie"]["h2d"]["pinned"]["bandwidth"];
  BOOST_TEST(bw.size() == 11u);
  BOOST_TEST(bw[0]["bytes"].as<std::uint64_t>() == 4096u);
  BOOST_TEST(bw[10]["bytes"].as<std::uint64_t>() == (4ull << 30));
  BOOST_TEST(y["pcie"]["h2d"]["pinned"]["latency"]["value"].as<double>() == 8e-6,
             boost::test_tools::tolerance(1e-5));
  BOOST_TEST(y["pcie"]["d2h"]["pageable"]["blocks_host_thread"]["value"].as<bool>());
  BOOST_TEST(y["device_memory"]["pool"]["released_to_os_by"]["value"].size() == 2u);
  BOOST_TEST(y["host_memory"]["malloc_host"]["per_gib"]["unit"].as<std::string>() == "s/GiB");
  BOOST_TEST(y["device_memory"]["pool"]["source"].IsDefined() == false);
  BOOST_TEST(y["device_memory"]["pool"]["reuse_other_stream"]["source"].as<std::string>().find(
                 "data/measurements/raw.json") != std::string::npos);
  // Every quantity (a map with `value`) carries unit and source; there are many of them.
  BOOST_TEST(check_quantities(y, "") > 80);
  BOOST_TEST(!y["kernels"]);
  // Costs are fitted from the raw per-size medians; a negative intercept is clamped to 0.
  BOOST_TEST(y["host_memory"]["host_register"]["fixed"]["value"].as<double>() == 1e-4,
             boost::test_tools::tolerance(1e-6));
  BOOST_TEST(y["host_memory"]["host_register"]["per_gib"]["value"].as<double>() == 0.04,
             boost::test_tools::tolerance(1e-5));
  BOOST_TEST(y["host_memory"]["free_host"]["fixed"]["value"].as<double>() == 0.0);
  BOOST_TEST(y["host_memory"]["free_host"]["fixed"]["source"].as<std::string>().find("clamped") !=
             std::string::npos);
  // Concurrency verdicts come from the end times: h2d queued, d2h shared.
  BOOST_TEST(y["pcie"]["concurrency"]["same_direction"]["value"].as<std::string>() == "queued");
  BOOST_TEST(y["pcie"]["concurrency"]["same_direction_d2h"]["value"].as<std::string>() == "shared");
  // Device-synchronising calls by API name; the others by probe call id.
  const YAML::Node sync = y["synchronization"]["calls_that_synchronize_device"]["value"];
  BOOST_TEST(sync.size() == 3u);
  BOOST_TEST(sync[1].as<std::string>() == "cudaHostUnregister");
  BOOST_TEST(
      y["synchronization"]["calls_that_do_not_synchronize_device"]["value"][0].as<std::string>() ==
      "cudaMalloc_64MiB");
}

BOOST_AUTO_TEST_CASE(pair_classification_reads_end_times) {
  // System: two 1 GiB copies released together. Expectation: first done at half the last ->
  // queued; both done together -> shared; in between -> partial.
  BOOST_TEST(std::string(classify_pair({0, 0.0194, 0, 0.0387}).verdict) == "queued");
  BOOST_TEST(std::string(classify_pair({0, 0.0383, 0, 0.0387}).verdict) == "shared");
  BOOST_TEST(std::string(classify_pair({0, 0.029, 0, 0.0387}).verdict) == "partial");
  BOOST_TEST(classify_pair({0, 0.0194, 0, 0.0387}).a_finished_first);
}

BOOST_AUTO_TEST_CASE(cost_fit_clamps_a_negative_fixed_part) {
  // System: y = 0.38 s/GiB * x with a small negative offset. Expectation: fixed clamped to 0 and
  // the slope of the fit through the origin within 1%.
  const std::vector<double> x{0.0625, 0.25, 1, 4}, y{0.0232, 0.0945, 0.3795, 1.5195};
  const CostFit f = fit_cost(x, y, true);
  BOOST_TEST(f.clamped);
  BOOST_TEST(f.fixed == 0.0);
  BOOST_TEST(f.slope == 0.38, boost::test_tools::tolerance(0.01));
}

BOOST_AUTO_TEST_CASE(missing_raw_key_is_an_input_error_naming_it) {
  Json raw = synthetic_raw();
  raw["sections"]["trim_pending"]["summary"].erase("trim_with_pending_frees");
  try {
    build_calibration_yaml(inputs(raw));
    BOOST_FAIL("expected InputError");
  } catch (const prestage::InputError& e) {
    BOOST_TEST(e.file() == "raw.json");
    BOOST_TEST(e.key() == "sections.trim_pending.summary.trim_with_pending_frees");
  }
  raw = synthetic_raw();
  raw["sections"]["oom_sticky"]["summary"]["oom_sticky"] = "no";
  BOOST_CHECK_THROW(build_calibration_yaml(inputs(raw)), prestage::InputError);
}

BOOST_AUTO_TEST_CASE(kernel_curves_are_copied_and_checked) {
  CalibrationInputs in = inputs(synthetic_raw());
  in.kernels_file = "k.yaml";
  in.kernels_yaml =
      "kernels:\n  ntt:\n    - {log2_n: 20, value: 2.8e-4, unit: s, source: \"estimate: x\"}\n";
  const YAML::Node y = YAML::Load(build_calibration_yaml(in));
  BOOST_TEST(y["kernels"]["ntt"][0]["log2_n"].as<int>() == 20);
  BOOST_TEST(y["kernels"]["ntt"][0]["source"].as<std::string>() == "estimate: x");
  // A point without a source: error names the file, its line and the point's key.
  in.kernels_yaml = "kernels:\n  ntt:\n    - {log2_n: 20, value: 2.8e-4, unit: s}\n";
  try {
    build_calibration_yaml(in);
    BOOST_FAIL("expected InputError");
  } catch (const prestage::InputError& e) {
    BOOST_TEST(e.file() == "k.yaml");
    BOOST_TEST(e.line() == 3);
    BOOST_TEST(e.key() == "kernels.ntt[0].source");
  }
}

BOOST_AUTO_TEST_CASE(committed_h200_calibration_is_derived_from_the_committed_raw_results) {
  // System: data/calibration/h200.yaml, the probe's raw output and the GPU kernel benchmark it
  // cites (kernel curves, tests/unit/calib.cmake). Expectation: the
  // writer regenerates the committed file byte for byte (no hand edits, no stale derivation).
  const std::string raw_path = "data/measurements/h200-probe-2026-11-30.json";
  const std::string kernels_path = "data/calibration/estimates/h200-kernels.yaml";
  BOOST_REQUIRE(std::filesystem::exists(raw_path));
  CalibrationInputs in;
  in.raw = Json::parse(slurp(raw_path));
  in.raw_file = raw_path;
  in.raw_ref = raw_path;
  in.kernels_yaml = slurp(kernels_path);
  in.kernels_file = kernels_path;
  const std::string bench_path = "data/gpu-runs/2026-12-01-h200/run18-c6677ef/gpu_bench.json";
  in.gpu_bench = Json::parse(slurp(bench_path));
  in.gpu_bench_file = in.gpu_bench_ref = bench_path;
  in.extrapolate_log2_n = {27};
  const std::string text = build_calibration_yaml(in);
  BOOST_TEST(text == slurp("data/calibration/h200.yaml"));
  const YAML::Node y = YAML::Load(text);
  BOOST_TEST(y["device"]["name"].as<std::string>() == "NVIDIA H200");
  BOOST_TEST(check_quantities(y, "") > 100);
}

BOOST_AUTO_TEST_CASE(g2_porep_rows_become_the_b_g2_pipelines_workspace_curves) {
  // System: the calibration writer on session h's raw probe file (data/measurements/
  // h100-probe-2026-12-07b.json) with two `msm_streaming.summary.g2_porep` rows added (2^26:
  // streamed 0.31 s, resident 0.20 s; 2^27: streamed 0.60 s, resident -1, does not fit), in the
  // B_G2 pipeline's workspace of 40.5 B a point. Expectation: the curves msm_g2_porep_streamed_ws41
  // (both sizes) and msm_g2_porep_ws41 (2^26 only) with those measured points; the file without the
  // rows has neither. Exact (the emitter's 6 significant digits).
  const std::string raw_path = "data/measurements/h100-probe-2026-12-07b.json";
  Json raw = Json::parse(slurp(raw_path));
  CalibrationInputs in;
  in.raw_file = in.raw_ref = raw_path;
  const auto kernels = [&](const Json& r) {
    in.raw = r;
    return YAML::Load(build_calibration_yaml(in))["kernels"];
  };
  BOOST_TEST(!kernels(raw)["msm_g2_porep_streamed_ws41"]);
  const auto row = [](int log_n, double streamed, double resident) {
    return Json{{"log2_n", log_n},
                {"scalars", "porep"},
                {"workspace_B", std::ldexp(40.5, log_n)},
                {"chunk_points", 1 << 22},
                {"streamed_s", streamed},
                {"streamed_samples_s", Json::array({streamed, streamed, streamed})},
                {"resident_s", resident},
                {"resident_samples_s", resident > 0 ? Json::array({resident}) : Json::array()}};
  };
  raw["sections"]["msm_streaming"]["summary"]["g2_porep"] =
      Json::array({row(26, 0.31, 0.20), row(27, 0.60, -1)});
  const YAML::Node k = kernels(raw);
  const YAML::Node streamed = k["msm_g2_porep_streamed_ws41"]["points"];
  const YAML::Node resident = k["msm_g2_porep_ws41"]["points"];
  BOOST_TEST_REQUIRE(streamed.size() == 2u);
  BOOST_TEST(streamed[0]["log2_n"].as<int>() == 26);
  BOOST_TEST(streamed[0]["value"].as<double>() == 0.31);
  BOOST_TEST(streamed[1]["value"].as<double>() == 0.60);
  BOOST_TEST_REQUIRE(resident.size() == 1u);
  BOOST_TEST(resident[0]["value"].as<double>() == 0.20);
}

BOOST_AUTO_TEST_CASE(msm_workspace_rows_become_the_models_workspace_need) {
  // System: the calibration writer on the synthetic raw file with an `msm_workspace` section
  // (G1 and G2 rows at 2^16 and 2^17, as the probe writes them), then the model's loader on the
  // file it writes. Expectation: msm_workspace.g1 / g2 hold each curve's least_B in B by log2 n,
  // each source naming the default options' need; without the section the file has none. A row
  // without least_B is an input error naming it. Exact.
  BOOST_TEST(!YAML::Load(build_calibration_yaml(inputs(synthetic_raw())))["msm_workspace"]);
  Json raw = synthetic_raw();
  const auto row = [](const char* curve, int log_n, std::uint64_t least, std::uint64_t dflt) {
    return Json{{"curve", curve}, {"log2_n", log_n}, {"default_B", dflt}, {"least_B", least}};
  };
  raw["sections"]["msm_workspace"]["rows"] =
      Json::array({row("g1", 16, 3000000, 9000000), row("g1", 17, 5000000, 17000000),
                   row("g2", 16, 7000000, 8000000), row("g2", 17, 13000000, 15000000)});
  const std::string text = build_calibration_yaml(inputs(raw));
  const YAML::Node ws = YAML::Load(text)["msm_workspace"];
  BOOST_TEST_REQUIRE(ws["g1"].size() == 2u);
  BOOST_TEST(ws["g1"][1]["value"].as<std::uint64_t>() == 5000000u);
  BOOST_TEST(ws["g1"][1]["source"].as<std::string>().find("default options 17000000 B") !=
             std::string::npos);
  const auto dir =
      std::filesystem::temp_directory_path() / ("prestage_msm_ws_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "cal.yaml").string();
  std::ofstream(file) << text;
  const prestage::model::Calibration cal = prestage::model::load_calibration(file);
  std::filesystem::remove_all(dir);
  BOOST_TEST_REQUIRE(cal.msm_workspace.count("g2") == 1u);
  BOOST_TEST(cal.msm_workspace.at("g1").at(std::exp2(16)) == 3e6);
  BOOST_TEST(cal.msm_workspace.at("g2").at(std::exp2(17)) == 13e6);
  BOOST_TEST(cal.msm_workspace.at("g2").at(std::exp2(18)) == 26e6);  // beyond: linear in n
  raw["sections"]["msm_workspace"]["rows"][2].erase("least_B");
  try {
    (void)build_calibration_yaml(inputs(raw));
    BOOST_FAIL("a row without least_B was accepted");
  } catch (const prestage::InputError& e) {
    BOOST_TEST(std::string(e.what()).find("sections.msm_workspace.rows[2]") != std::string::npos);
  }
}
