// System: kernel cost curves for the calibration (model/kernel_fit, gpu/probe/kernel_curves, the
// `kernels:` loader in model/calibration).
// Expectations: the relative least-squares fit recovers known a, b from synthetic points; a
// gpu_bench JSON becomes measured points + fit (+ "estimate:" extrapolations); h_input is measured
// or a third of the circom H, coset_intt comes from the scratch row; bad benchmark input is an
// InputError naming the file and the key; the committed H200 calibration loads with measured
// values at measured sizes and the fit elsewhere, and its H steps add up to the measured H.
// Tolerances: 1e-9 relative for fits of exact synthetic data; 1e-5 relative for values read back
// from YAML (written with 6 significant digits).
#include <yaml-cpp/yaml.h>

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "gpu/probe/calibration.hpp"
#include "gpu/probe/kernel_curves.hpp"
#include "model/calibration.hpp"
#include "model/errors.hpp"
#include "model/kernel_fit.hpp"
#include "tests/support/sim_support.hpp"

using namespace prestage;
using model::KernelForm;
using Json = nlohmann::ordered_json;
namespace tt = boost::test_tools;

namespace {

const char* kBench = "data/gpu-runs/2026-12-01-h200/run18-c6677ef/gpu_bench.json";

// A gpu_bench-shaped row: median of three runs spread 1% around `ms`.
Json row(const char* name, int log_n, double ms) {
  return Json{{"name", name},
              {"log_n", log_n},
              {"n", std::uint64_t{1} << log_n},
              {"median_ms", ms},
              {"runs_ms", Json::array({ms * 1.01, ms, ms * 0.99})}};
}

// Synthetic benchmark: forward NTT exactly 2e-12 * n log2 n + 1e-5 s, inverse 1.1 x that at 2^22;
// G1 MSM exactly 5e-9 * n + 2e-3 s.
Json synthetic_bench() {
  Json rows = Json::array();
  for (int l : {16, 18, 20, 22})
    rows.push_back(row("fr_ntt_forward", l, 1e3 * (2e-12 * std::exp2(l) * l + 1e-5)));
  rows.push_back(row("fr_ntt_inverse", 22, 1.1e3 * (2e-12 * std::exp2(22) * 22 + 1e-5)));
  for (int l : {16, 18, 20}) rows.push_back(row("g1_msm", l, 1e3 * (5e-9 * std::exp2(l) + 2e-3)));
  return Json{{"manifest",
               {{"commit", "abc1234"},
                {"date", "2026-11-30T00:00:00Z"},
                {"gpu", "Test GPU"},
                {"quick", false}}},
              {"rows", rows}};
}

void emit_bench_kernels_into(YAML::Emitter& e, const Json& bench, const std::vector<int>& ex) {
  probe::emit_bench_kernels(e, probe::BenchInputs{bench, "bench.json", "data/x/bench.json", ex});
}

std::string emit(const Json& bench, std::vector<int> extrapolate = {}) {
  YAML::Emitter e;
  e.SetDoublePrecision(6);
  e << YAML::BeginMap;
  emit_bench_kernels_into(e, bench, extrapolate);
  e << YAML::EndMap;
  return e.c_str();
}

InputError bad_bench(const Json& bench) {
  try {
    emit(bench);
  } catch (const InputError& e) {
    BOOST_TEST(e.file() == "bench.json");
    return e;
  }
  BOOST_FAIL("expected an InputError");
  throw;
}

}  // namespace

BOOST_AUTO_TEST_CASE(fit_recovers_ntt_and_msm_parameters_from_exact_points) {
  // System: t = a * n log2 n + b (a = 3.1e-12 s, b = 2.5e-5 s) at 2^10..2^27, and t = a * n + b
  // (a = 6.5e-9 s, b = 1.2e-3 s) at 2^16, 2^18, .., 2^26. Expectation: both recovered, residuals
  // ~0. Tolerance 1e-9 relative.
  std::vector<double> n, t;
  for (int l = 10; l <= 27; ++l) {
    n.push_back(std::exp2(l));
    t.push_back(3.1e-12 * std::exp2(l) * l + 2.5e-5);
  }
  const model::KernelFit f = model::fit_kernel(KernelForm::n_log2_n, n, t);
  BOOST_TEST(f.model.a == 3.1e-12, tt::tolerance(1e-9));
  BOOST_TEST(f.model.b == 2.5e-5, tt::tolerance(1e-9));
  BOOST_TEST(!f.clamped);
  BOOST_TEST(f.max_rel_residual < 1e-9);
  BOOST_TEST(f.rel_residuals.size() == n.size());

  n.clear();
  t.clear();
  for (int l = 16; l <= 26; l += 2) {
    n.push_back(std::exp2(l));
    t.push_back(6.5e-9 * std::exp2(l) + 1.2e-3);
  }
  const model::KernelFit g = model::fit_kernel(KernelForm::linear, n, t);
  BOOST_TEST(g.model.a == 6.5e-9, tt::tolerance(1e-9));
  BOOST_TEST(g.model.b == 1.2e-3, tt::tolerance(1e-9));
  BOOST_TEST(g.model.at(std::exp2(27)) == 6.5e-9 * std::exp2(27) + 1.2e-3, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(fit_minimises_relative_error_and_clamps_a_negative_intercept) {
  // System: two points t(2^10) = 1 ms, t(2^20) = 10 ms; a line through them has a positive
  // intercept, so the 2-point fit is exact. Points t = 1e-8 n - 1e-4 (negative intercept): the fit
  // is redone through the origin, a = sum(w) / sum(w^2) with w = n / t. Tolerance 1e-9.
  const model::KernelFit f =
      model::fit_kernel(KernelForm::linear, {1024.0, 1048576.0}, {1e-3, 1e-2});
  BOOST_TEST(f.model.at(1024.0) == 1e-3, tt::tolerance(1e-9));
  BOOST_TEST(f.model.at(1048576.0) == 1e-2, tt::tolerance(1e-9));
  const std::vector<double> n{1e5, 1e6, 1e7};
  std::vector<double> t;
  double sw = 0, sw2 = 0;
  for (double v : n) {
    t.push_back(1e-8 * v - 1e-4);
    sw += v / t.back();
    sw2 += (v / t.back()) * (v / t.back());
  }
  const model::KernelFit c = model::fit_kernel(KernelForm::linear, n, t);
  BOOST_TEST(c.clamped);
  BOOST_TEST(c.model.b == 0.0);
  BOOST_TEST(c.model.a == sw / sw2, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(fit_rejects_too_few_or_invalid_points) {
  BOOST_CHECK_THROW(model::fit_kernel(KernelForm::linear, {1024.0}, {1e-3}), std::invalid_argument);
  BOOST_CHECK_THROW(model::fit_kernel(KernelForm::linear, {1024.0, 1024.0}, {1e-3, 2e-3}),
                    std::invalid_argument);
  BOOST_CHECK_THROW(model::fit_kernel(KernelForm::linear, {1024.0, 2048.0}, {1e-3, 0.0}),
                    std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(bench_rows_become_measured_points_and_fits) {
  // System: the synthetic benchmark above. Expectation: ntt keeps its 4 medians (in s) and fits
  // a = 2e-12, b = 1e-5; intt (one size) takes the ntt fit scaled by 1.1; msm_g1 fits
  // a = 5e-9, b = 2e-3; at 2^24 (requested, not measured) each records an "estimate:" value equal
  // to its fit. Tolerance 1e-5 relative (6 significant digits in the YAML).
  const YAML::Node y = YAML::Load(emit(synthetic_bench(), {24}));
  const YAML::Node ntt = y["ntt"];
  BOOST_REQUIRE(ntt["points"].size() == 4u);
  BOOST_TEST(ntt["points"][0]["log2_n"].as<int>() == 16);
  BOOST_TEST(ntt["points"][0]["value"].as<double>() == 2e-12 * std::exp2(16) * 16 + 1e-5,
             tt::tolerance(1e-5));
  BOOST_TEST(ntt["points"][0]["source"].as<std::string>().find("median of 3 runs") !=
             std::string::npos);
  BOOST_TEST(ntt["points"][0]["source"].as<std::string>().find("rows[0], commit abc1234") !=
             std::string::npos);
  BOOST_TEST(ntt["fit"]["model"].as<std::string>() == "a*n*log2(n)+b");
  BOOST_TEST(ntt["fit"]["a"].as<double>() == 2e-12, tt::tolerance(1e-5));
  BOOST_TEST(ntt["fit"]["b"].as<double>() == 1e-5, tt::tolerance(1e-5));
  BOOST_TEST(ntt["fit"]["residuals"].size() == 4u);
  BOOST_TEST(ntt["fit"]["max_rel_residual"].as<double>() < 1e-9);
  BOOST_TEST(y["intt"]["fit"]["a"].as<double>() == 2.2e-12, tt::tolerance(1e-5));
  BOOST_TEST(y["intt"]["fit"]["source"].as<std::string>().rfind("estimate:", 0) == 0);
  BOOST_TEST(y["msm_g1"]["fit"]["model"].as<std::string>() == "a*n+b");
  BOOST_TEST(y["msm_g1"]["fit"]["a"].as<double>() == 5e-9, tt::tolerance(1e-5));
  BOOST_TEST(y["msm_g1"]["fit"]["b"].as<double>() == 2e-3, tt::tolerance(1e-5));
  const YAML::Node ex = y["msm_g1"]["extrapolated"][0];
  BOOST_TEST(ex["log2_n"].as<int>() == 24);
  BOOST_TEST(ex["value"].as<double>() == 5e-9 * std::exp2(24) + 2e-3, tt::tolerance(1e-5));
  BOOST_TEST(ex["source"].as<std::string>().rfind("estimate: extrapolated by fit", 0) == 0);
  BOOST_TEST(!y["msm_g2"]);     // not in the benchmark: no curve
  BOOST_TEST(!y["h_input"]);    // no H row: no derived estimate
  BOOST_TEST(!y["pointwise"]);  // a*b-c is fused into the H chains: never a curve of its own
}

BOOST_AUTO_TEST_CASE(h_input_is_a_third_of_the_circom_h_unless_measured) {
  // System: the synthetic benchmark plus a groth16_h_circom row at 2^22 of 3 x 7 ms; then also a
  // groth16_h_input row at 2^22 of 6 ms. Expectation: without the h_input row the h_input curve
  // is 7 ms at 2^22, its source says "estimate: derived ... groth16_h_circom / 3" and names the
  // H row; with the row, it is the row's 6 ms median. Tolerance 1e-5 relative (6 significant
  // digits in the YAML).
  Json b = synthetic_bench();
  b["rows"].push_back(row("groth16_h_circom", 22, 21.0));
  const std::string h_index = std::to_string(b["rows"].size() - 1);
  YAML::Node y = YAML::Load(emit(b));
  BOOST_REQUIRE(y["h_input"]["points"].size() == 1u);
  BOOST_TEST(y["h_input"]["points"][0]["value"].as<double>() == 7e-3, tt::tolerance(1e-5));
  const std::string src = y["h_input"]["points"][0]["source"].as<std::string>();
  BOOST_TEST(src.rfind("estimate: derived", 0) == 0);
  BOOST_TEST(src.find("groth16_h_circom / 3") != std::string::npos);
  BOOST_TEST(src.find("rows[" + h_index + "]") != std::string::npos);
  BOOST_TEST(y["h_input"]["fit"]["source"].as<std::string>().rfind("estimate:", 0) == 0);
  BOOST_TEST(y["h_circom"]["points"][0]["value"].as<double>() == 21e-3, tt::tolerance(1e-5));

  b["rows"].push_back(row("groth16_h_input", 22, 6.0));
  y = YAML::Load(emit(b));
  BOOST_REQUIRE(y["h_input"]["points"].size() == 1u);
  BOOST_TEST(y["h_input"]["points"][0]["value"].as<double>() == 6e-3, tt::tolerance(1e-5));
  BOOST_TEST(y["h_input"]["points"][0]["source"].as<std::string>().find(
                 "gpu_bench groth16_h_input 2^22: median of 3 runs") == 0);
}

BOOST_AUTO_TEST_CASE(a_derived_time_that_is_not_positive_is_an_input_error) {
  // System: the synthetic benchmark plus a groth16_h_circom row whose median (the smallest
  // denormal, 4.9e-324 ms) passes the row checks but is 0 once in seconds. Expectation: deriving
  // h_input from it gives 0 s, which is never written: InputError naming the benchmark file and
  // the H row's median. Tolerance: none.
  Json b = synthetic_bench();
  const double tiny = std::numeric_limits<double>::denorm_min();
  b["rows"].push_back(Json{{"name", "groth16_h_circom"},
                           {"log_n", 22},
                           {"n", std::uint64_t{1} << 22},
                           {"median_ms", tiny},
                           {"runs_ms", Json::array({tiny, tiny, tiny})}});
  const InputError e = bad_bench(b);
  BOOST_TEST(e.key() == "rows[" + std::to_string(b["rows"].size() - 1) + "].median_ms");
  BOOST_TEST(std::string(e.what()).find("not positive") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(coset_intt_comes_from_the_scratch_row) {
  // System: the synthetic benchmark plus fr_ntt_coset_inverse (9 ms) and
  // fr_ntt_coset_inverse_scratch (8 ms) at 2^22. Expectation: coset_intt is the scratch row's
  // 8 ms (the prover's textbook H runs it with d_b as scratch). Tolerance 1e-5 relative.
  Json b = synthetic_bench();
  b["rows"].push_back(row("fr_ntt_coset_inverse", 22, 9.0));
  b["rows"].push_back(row("fr_ntt_coset_inverse_scratch", 22, 8.0));
  const YAML::Node y = YAML::Load(emit(b));
  BOOST_TEST(y["coset_intt"]["points"][0]["value"].as<double>() == 8e-3, tt::tolerance(1e-5));
  BOOST_TEST(y["coset_intt"]["points"][0]["source"].as<std::string>().find(
                 "fr_ntt_coset_inverse_scratch") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(msm_g2_comes_from_the_xyzz_rows_when_the_default_is_batch_affine) {
  // System: the synthetic benchmark plus g2_msm (the Auto default: batch-affine, 40 and 110 ms)
  // and g2_msm_xyzz (45 and 140 ms) at 2^20 and 2^22, as gpu_bench writes them since G2's Auto
  // default is batch-affine. Expectation: msm_g2 is fitted through the XYZZ rows (the accumulation
  // the pipeline's 2^27 B_G2 MSM runs) and says so; a benchmark with g2_msm only (written while
  // g2_msm was XYZZ, before the g2_msm_xyzz rows) still gives the curve.
  // Tolerance 1e-5 relative.
  Json b = synthetic_bench();
  b["rows"].push_back(row("g2_msm", 20, 40.0));
  b["rows"].push_back(row("g2_msm", 22, 110.0));
  b["rows"].push_back(row("g2_msm_xyzz", 20, 45.0));
  b["rows"].push_back(row("g2_msm_xyzz", 22, 140.0));
  YAML::Node y = YAML::Load(emit(b));
  BOOST_TEST(y["msm_g2"]["points"][0]["value"].as<double>() == 45e-3, tt::tolerance(1e-5));
  BOOST_TEST(y["msm_g2"]["points"][1]["value"].as<double>() == 140e-3, tt::tolerance(1e-5));
  BOOST_TEST(y["msm_g2"]["fit"]["source"].as<std::string>().find("g2_msm_xyzz") !=
             std::string::npos);
  Json old = synthetic_bench();
  old["rows"].push_back(row("g2_msm", 20, 45.0));
  old["rows"].push_back(row("g2_msm", 22, 140.0));
  y = YAML::Load(emit(old));
  BOOST_TEST(y["msm_g2"]["points"][1]["value"].as<double>() == 140e-3, tt::tolerance(1e-5));
}

BOOST_AUTO_TEST_CASE(interleaved_ab_rounds_are_allowed_and_left_out_of_the_curves) {
  // System: the synthetic benchmark plus two repetitions (gpu_bench "round" 0 and 1, as its
  // mirror_ab token writes them) of fr_ntt_forward at 2^20 at 10x the plain row's time.
  // Expectation: the file is accepted, the curve's 2^20 point is the plain row's, and a round
  // repeated, or a round that is not a non-negative integer, is an input error naming the row.
  // Tolerance 1e-5 relative.
  Json b = synthetic_bench();
  const double plain_ms = b["rows"][2]["median_ms"].get<double>();
  BOOST_REQUIRE(b["rows"][2]["log_n"].get<int>() == 20);
  for (int round : {0, 1}) {
    Json r = row("fr_ntt_forward", 20, 10 * plain_ms);
    r["round"] = round;
    b["rows"].push_back(r);
  }
  YAML::Node y = YAML::Load(emit(b));
  BOOST_TEST(y["ntt"]["points"][2]["value"].as<double>() == plain_ms * 1e-3, tt::tolerance(1e-5));
  Json dup = b;
  dup["rows"].push_back(b["rows"][9]);
  BOOST_TEST(bad_bench(dup).key() == "rows[10]");
  Json neg = b;
  neg["rows"][9]["round"] = -1;
  BOOST_TEST(bad_bench(neg).key() == "rows[9].round");
}

BOOST_AUTO_TEST_CASE(bad_benchmark_is_an_input_error_naming_the_key) {
  Json b = synthetic_bench();
  b["rows"][1].erase("median_ms");
  BOOST_TEST(bad_bench(b).key() == "rows[1].median_ms");
  b = synthetic_bench();
  b["rows"][2]["median_ms"] = 1.0;  // not the median of its runs
  BOOST_TEST(bad_bench(b).key() == "rows[2].median_ms");
  b = synthetic_bench();
  b["rows"][0]["n"] = 1000;
  BOOST_TEST(bad_bench(b).key() == "rows[0].n");
  b = synthetic_bench();
  b["rows"][3]["runs_ms"][1] = "x";
  BOOST_TEST(bad_bench(b).key() == "rows[3].runs_ms[1]");
  b = synthetic_bench();
  b["rows"].push_back(b["rows"][0]);
  BOOST_TEST(bad_bench(b).key() == "rows[8]");
  b = synthetic_bench();
  b["manifest"]["quick"] = true;
  BOOST_TEST(bad_bench(b).key() == "manifest.quick");
  b = synthetic_bench();
  b["manifest"].erase("commit");
  BOOST_TEST(bad_bench(b).key() == "manifest.commit");
  BOOST_TEST(bad_bench(Json::array()).key() == "");
}

BOOST_AUTO_TEST_CASE(committed_h200_kernels_are_the_measured_medians_and_fits) {
  // System: data/calibration/h200.yaml loaded by the model, and the benchmark it cites (run 8,
  // commit 2a8dbb9, the fused H). Expectation: at measured sizes the model's kernel time is the
  // benchmark median (intt, coset_ntt, coset_intt from the scratch row at 2^27, msm_g1 at 2^26);
  // where not measured, the fit (msm_g1 at 2^27); the pipeline's h_input step is the measured
  // groth16_h_input row or, without one, a third of the circom H; no curve has a time <= 0.
  // Tolerance 1e-5 relative (6 significant digits in the YAML).
  std::ifstream f(kBench);
  const Json bench = Json::parse(f);
  auto find = [&](const std::string& name, int l) -> const Json* {
    for (const Json& r : bench["rows"])
      if (r["name"] == name && r["log_n"] == l) return &r;
    return nullptr;
  };
  auto median_s = [&](const std::string& name, int l) {
    const Json* r = find(name, l);
    if (r == nullptr) BOOST_FAIL("no row " + name);
    return (*r)["median_ms"].get<double>() * 1e-3;
  };
  const model::Calibration c = model::load_calibration("data/calibration/h200.yaml");
  const double n27 = std::exp2(27);
  BOOST_TEST(c.kernels.at("intt").at(n27) == median_s("fr_ntt_inverse", 27), tt::tolerance(1e-5));
  BOOST_TEST(c.kernels.at("coset_ntt").at(n27) == median_s("fr_ntt_coset_forward", 27),
             tt::tolerance(1e-5));
  BOOST_TEST(c.kernels.at("coset_intt").at(n27) == median_s("fr_ntt_coset_inverse_scratch", 27),
             tt::tolerance(1e-5));
  const double h_input = find("groth16_h_input", 27) != nullptr
                             ? median_s("groth16_h_input", 27)
                             : median_s("groth16_h_circom", 27) / 3;
  BOOST_TEST(c.kernels.at("h_input").at(n27) == h_input, tt::tolerance(1e-5));
  BOOST_TEST(c.kernels.count("pointwise") == 0u);
  const model::Curve& msm = c.kernels.at("msm_g1");
  // The XYZZ rows where the benchmark has them (session 8 on: g1_msm is the batch-affine default).
  const std::string g1_row = find("g1_msm_xyzz", 26) != nullptr ? "g1_msm_xyzz" : "g1_msm";
  BOOST_TEST(msm.at(std::exp2(26)) == median_s(g1_row, 26), tt::tolerance(1e-5));
  BOOST_REQUIRE(msm.has_model);
  // 2^27: the measured median where the benchmark has the row (run 8 on), else the fit's value.
  const bool g1_27_measured = find(g1_row, 27) != nullptr;
  if (g1_27_measured)
    BOOST_TEST(msm.at(n27) == median_s(g1_row, 27), tt::tolerance(1e-5));
  else
    BOOST_TEST(msm.at(n27) == msm.model.a * n27 + msm.model.b, tt::tolerance(1e-12));
  // The G1 fit predicts the measured sizes within its recorded residuals (< 10%).
  for (int l : {20, 22, 24, 26, 27})
    if (l < 27 || g1_27_measured)
      BOOST_TEST(std::abs(msm.model.at(std::exp2(l)) / median_s(g1_row, l) - 1) < 0.1);
  for (const auto& [name, curve] : c.kernels)
    for (int l = 20; l <= 27; ++l) BOOST_TEST(curve.at(std::exp2(l)) > 0, name << " 2^" << l);
}

BOOST_AUTO_TEST_CASE(pipeline_h_steps_add_up_to_the_measured_textbook_h) {
  // System: the committed calibration's curves that the default pipeline times the H with
  // (3 x h_input + coset_intt at 2^27), against the benchmark's whole textbook H row
  // (groth16_h_textbook: the same three chains with (a*b-c)/Z, then the coset iNTT with d_b as
  // scratch). Expectation: the sum is the measured whole within 2% (run 8: 312.6 ms vs
  // 316.3 ms, -1.2%; run 6: -0.7%: the circom chain's a*b-c vs the textbook's (a*b-c)/Z and launch
  // gaps).
  const model::Calibration c = model::load_calibration("data/calibration/h200.yaml");
  const double n27 = std::exp2(27);
  const double steps = 3 * c.kernels.at("h_input").at(n27) + c.kernels.at("coset_intt").at(n27);
  const double whole = c.kernels.at("h_textbook").at(n27);
  BOOST_TEST_MESSAGE("3 x h_input + coset_intt = " << steps * 1e3 << " ms; textbook H "
                                                   << whole * 1e3 << " ms");
  BOOST_TEST(std::abs(steps / whole - 1) < 0.02);
}

BOOST_AUTO_TEST_CASE(an_extrapolation_that_disagrees_with_its_fit_is_rejected) {
  // System: the committed calibration with msm_g2's recorded 2^27 estimate edited by hand (G2
  // is measured at 2^20 and 2^22 only). Expectation: InputError naming the file and the
  // extrapolated value's key.
  std::string text = test::read_text("data/calibration/h200.yaml");
  const std::size_t at = text.find("extrapolated:", text.find("  msm_g2:\n"));
  BOOST_REQUIRE(at != std::string::npos);
  const std::size_t v = text.find("value: ", at) + 7;
  text.insert(v, "9");
  test::TempDir d("calib");
  const std::string path = d.file("h200.yaml", text);
  try {
    model::load_calibration(path);
    BOOST_FAIL("expected an InputError");
  } catch (const InputError& e) {
    BOOST_TEST(e.file() == path);
    BOOST_TEST(e.line() > 0);
    BOOST_TEST(e.key().find("kernels.msm_g2.extrapolated") == 0);
  }
}

BOOST_AUTO_TEST_CASE(a_bad_fit_block_names_file_line_and_key) {
  // System: the committed calibration with (1) an unknown fit model, (2) an unknown key in a fit,
  // (3) a residual missing. Expectation: InputError naming the file, a line and the key path.
  struct Case {
    const char* from;
    const char* to;
    const char* key;
  };
  const std::string text = test::read_text("data/calibration/h200.yaml");
  // ntt's first residual entry, "residuals: [{log2_n: 20, rel: R}, ", as the file has it.
  const std::size_t res = text.find("residuals: [", text.find("  ntt:\n"));
  BOOST_REQUIRE(res != std::string::npos);
  const std::string first_residual = text.substr(res, text.find("}, ", res) + 3 - res);
  const Case cases[] = {
      {"model: a*n*log2(n)+b", "model: a*n^2", "kernels.ntt.fit.model"},
      {"      unit: s\n", "      unit: s\n      bogus: 1\n", "kernels.ntt.fit.bogus"},
      {first_residual.c_str(), "residuals: [", "kernels.ntt.fit.residuals"},
  };
  for (const Case& c : cases) {
    test::TempDir d("calib-fit");
    const std::string path = d.file("h200.yaml", test::replace_once(text, c.from, c.to));
    try {
      model::load_calibration(path);
      BOOST_FAIL("expected an InputError for " << c.key);
    } catch (const InputError& e) {
      BOOST_TEST(e.file() == path);
      BOOST_TEST(e.line() > 0);
      BOOST_TEST(e.key() == c.key);
    }
  }
}
