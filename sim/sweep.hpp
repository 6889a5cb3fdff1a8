#pragma once
// Parameter sweeps: the cross product of --vary key=v1,v2,... over a scenario, run in parallel,
// one CSV row per point (in cross-product order, whatever the thread count).
#include <functional>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "model/scenario.hpp"
#include "sim/runner.hpp"

namespace prestage::sim {
using model::build_scenario;
using model::load_scenario;
using model::LoadCache;
using model::Overrides;

struct Vary {
  std::string key;                  // dotted scenario key, e.g. policy.params.margin
  std::vector<std::string> values;  // YAML scalars
};

// Parses "key=v1,v2,..." (InputError naming --vary on a malformed spec).
Vary parse_vary(const std::string& spec);

// Parses one "key=value" of `prestage simulate --set` (the same dotted key as --vary, one value,
// which may contain commas: "policy.params={margin: 1GiB, trim: never}"). InputError naming
// --set on a malformed spec.
std::pair<std::string, std::string> parse_set(const std::string& spec);

// Loads a scenario with `overrides`; an error in an overridden key is reported against `option`
// ("--set", "--vary") and the key, with the value, instead of the scenario file.
Scenario load_with_overrides(const std::string& path, const Overrides& overrides,
                             const std::string& option);

struct SweepPoint {
  Overrides overrides;
  Summary summary;         // empty when infeasible
  std::string infeasible;  // why the point was not simulated (InfeasibleError), else empty
};

// Builds every point first (so a bad value fails before anything runs), then runs them on
// `threads` threads. A point whose scenario is infeasible (model::InfeasibleError: a buffer larger
// than its card) is marked, not run; every point infeasible is an InputError. `progress(done,
// total)` is called from worker threads under a lock.
std::vector<SweepPoint> run_sweep(
    const std::string& scenario_path, const std::vector<Vary>& vary, int threads,
    const std::function<void(std::size_t, std::size_t)>& progress = {});

// CSV: the vary keys, then the summary columns, then `infeasible` (the reason, or empty); an
// infeasible point's summary columns are empty, never zeros. Deterministic.
void write_sweep_csv(std::ostream& out, const std::vector<Vary>& vary,
                     const std::vector<SweepPoint>& points);

}  // namespace prestage::sim
