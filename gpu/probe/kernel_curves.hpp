#pragma once
// Kernel cost curves for the calibration (data/calibration/SCHEMA.md, `kernels:`) from a
// GPU kernel benchmark (gpu_bench's JSON, gpu/bench/README.md; e.g.
// data/gpu-runs/2026-11-30-h200/run8-2a8dbb9/gpu_bench.json). Pure C++ (Eigen fits, no CUDA).
//
// Each curve keeps the measured points (value = median_ms of a row, source = file, row, commit,
// date, statistic) and a fitted model for the sizes not measured (model/kernel_fit.hpp: NTT-like
// a*n*log2(n)+b, MSM-like a*n+b, least squares in relative error). A curve measured at one size
// only takes the shape of a related fitted curve (inverse and coset NTT: the forward NTT's fit
// scaled to the measured point) or, without one, is proportional to n; both say "estimate:".
// `h_input` (one input's fused iNTT + coset NTT chain of the H computation) comes from a
// groth16_h_input row when the benchmark has one, else is derived as groth16_h_circom / 3 and
// says so ("estimate: derived"). A derived value is never <= 0: that is an InputError.
#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace prestage::probe {

struct BenchInputs {
  nlohmann::ordered_json bench;         // gpu_bench's output (manifest + rows)
  std::string file;                     // its name in errors (InputError names it)
  std::string ref;                      // path cited in every `source`
  std::vector<int> extrapolate_log2_n;  // sizes (log2 n) at which each curve not measured there
                                        // records the fit's value as an `extrapolated` estimate
};

// Emits the curves measured by the benchmark into `e`, which must be inside the `kernels:` map,
// and returns their names. Throws InputError(file, 0, key path like "rows[3].median_ms", ...) when
// the benchmark lacks a key, has a wrong type, a median that is not the median of its runs, a
// size that disagrees with log_n, a duplicate row, or is a --quick run, and when a derived value
// comes out <= 0 (key: the rows it is derived from).
std::set<std::string> emit_bench_kernels(YAML::Emitter& e, const BenchInputs& in);

// One MSM-like curve (a*n+b) measured by the probe itself rather than the benchmark (e.g. the
// msm_streaming section's streamed MSMs): the (log2 n, s) medians with a source each, fitted and
// emitted as emit_bench_kernels emits its curves, into the open `kernels:` map.
void emit_measured_msm_curve(YAML::Emitter& e, const std::string& name,
                             const std::vector<std::pair<int, double>>& points,
                             const std::vector<std::string>& sources, const std::string& what,
                             const std::vector<int>& extrapolate_log2_n);

}  // namespace prestage::probe
