#pragma once
// Replay: the model with each step's time taken from recorded runs of the real prover.
//
// A recorded run (the output directory of `prestage run --gpu`) holds how long each step took on
// the machine that ran it: every kernel, upload, download, allocation, free and pinning call.
// Replay keeps those times and lets the model decide everything else (what the policy stages,
// who waits for the lock, what shares the link, what runs out of memory) under another policy,
// VRAM size or worker count: "what would this machine have done under policy P".
//
// How: each recorded run's scenario is simulated with the same file and seed (plus the given
// overrides, e.g. the calibration of the run's session) and the run's proof count. Per event
// name, a run's factor is its fastest measured occurrence over the fastest modelled one (the
// step's own cost; slower occurrences waited for the SMs, the link or the driver, which the model
// decides itself and replay must not fold in):
// kernels and copies on the GPU's own tracks (compute, h2d, d2h; not the host threads' views),
// allocations, frees, host_register and host_unregister as the calls' own events. Several
// recorded runs: the median of their factors per name. The target scenario's modelled time of
// each named event is multiplied by its factor (Scenario::step_time_scale), so that contention,
// link sharing and the policy's decisions stay the model's. A staged upload that no recorded run
// has takes the factor of the in-lock upload of the same input, and the other way round (the same
// copy on another stream); any other event name that no recorded run has keeps the model's time
// (factor 1) and is listed. Waits (lock, sync, staged-upload waits),
// policy calls and synthesis (a scenario input) are not replayed.
//
// The factors come from the recorded runs only: a validation of replay must not record the runs
// it is judged on (`prestage validate --replay-from` leaves the target scenario's own runs, and
// the held-back ones, out).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/scenario.hpp"

namespace prestage::sim {

struct ReplayFactor {
  double factor = 1;          // median over the recorded runs of measured_min / modelled_min
  double measured_min_s = 0;  // median over the runs of each run's fastest occurrence (s)
  double modelled_min_s = 0;  // the same in the model of each run's scenario (s)
  double measured_median_s = 0, modelled_median_s = 0;  // the same with each run's median (s)
  int runs = 0;             // recorded runs that had the event in both logs
  std::int64_t events = 0;  // measured events of this name, all runs together
};

struct Replay {
  std::vector<std::string> runs;              // recorded run directories, as given
  std::vector<std::string> scenarios;         // the scenario name of each
  std::map<std::string, ReplayFactor> steps;  // event name -> factor
  std::vector<std::string> notes;             // e.g. a scenario file changed since its run
};

// Reads recorded runs: each a directory with the manifest.json of `prestage run --gpu` (its
// scenario.file, relative to the current directory, names the scenario), summary.json and
// events.jsonl. `overrides` apply to every recorded scenario's simulation (e.g. calibration=...).
// InputError naming the file and key on a missing or malformed file, or on no runs.
Replay measure_replay(const std::vector<std::string>& run_dirs, const model::Overrides& overrides);

// Sets s.step_time_scale from the factors and adds a note saying so (summary.json `notes`);
// returns the names of the scenario's timed events that no recorded run had (model's time kept).
std::vector<std::string> apply_replay(model::Scenario& s, const Replay& r);

// manifest.json's `replay` object: the runs, and per event name its factor and medians.
nlohmann::json to_json(const Replay& r);

}  // namespace prestage::sim
