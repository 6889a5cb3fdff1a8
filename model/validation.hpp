#pragma once
// The model against measured runs: for one scenario, the summaries (summary.json) of several
// measured runs of the GPU driver and the summary of the simulator's run of the same file,
// compared figure by figure with the measured spread, the model's value, its error against the
// measured median and a verdict per goal (the validation issue's goals, kept here as data):
//   makespan, throughput   inside the measured [min, max], or within 5% of the median
//   OOM verdicts           "any OOM?" and "any partition lost?" the same on both sides
//   peak used memory       within one allocation granule (2 MiB)
//   per-transfer times     (upload phases) within 3% of the measured median
// Other figures (per-step means, waits) are reported with their error and no verdict.
// Pure data in, data out: reading run directories and running the simulator are the caller's.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace prestage::model {

struct ValidationFigure {
  std::string name, unit;
  std::vector<double> measured;  // one value per measured run
  double model = 0;
  bool has_model = false;
  double median = 0, min = 0, max = 0;
  double rel_error = 0;  // (model - median) / median; 0 when the median is 0 and model is 0
  std::string goal;      // "" when the figure has no goal
  bool pass = true;      // meets its goal (true when it has none)
};

// Robustness (the goal "a verdict that flips when start times move by 1 ms is reported as
// timing-dependent"): the verdicts of several runs of one scenario that differ only in timing --
// the simulator under start shifts (run.worker_start_offset), or the measured repeats.
struct TimingCheck {
  std::vector<std::string> labels;       // one per run, e.g. "worker 1 starts 1 ms later"
  std::vector<double> makespan;          // s
  std::vector<double> done, ooms, lost;  // partitions done, OOM events, partitions lost
  // A verdict differs between the runs: any OOM, any partition lost, or partitions done.
  bool dependent() const;
  bool empty() const { return labels.empty(); }
};
TimingCheck timing_check(const std::vector<std::string>& labels,
                         const std::vector<nlohmann::json>& summaries);

struct ScenarioValidation {
  std::string scenario, kernels;  // kernels: the GPU runs' kernel mode (real / spin)
  int runs = 0;
  bool held_back = false;  // in the grid's held-back part (reported on its own)
  std::vector<ValidationFigure> figures;
  TimingCheck model_timing;  // the simulator as given and under start shifts (may be empty)
  // The simulator as given and with the synchronous allocator's costs (cudaMalloc, cudaFree)
  // scaled down and up: a verdict that differs rests on sub-millisecond costs that two probes of
  // one card kind measured apart (may be empty).
  TimingCheck model_costs;
  TimingCheck measured_timing;  // the measured repeats
  bool pass() const;
  int failed_goals() const;
};

// Compares `measured` summaries (summary.json objects of the GPU driver) with `simulated` (the
// simulator's summary.json object) of the same scenario file.
ScenarioValidation validate_scenario(const std::string& scenario, const std::string& kernels,
                                     const std::vector<nlohmann::json>& measured,
                                     const nlohmann::json& simulated);

// The report: Markdown (a table per scenario and a verdict line each, then one for the grid) and
// JSON (the same figures).
std::string validation_markdown(const std::vector<ScenarioValidation>& v);
nlohmann::json validation_json(const std::vector<ScenarioValidation>& v);

}  // namespace prestage::model
