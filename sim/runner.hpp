#pragma once
// Runs a scenario in the discrete-event model and summarises it. Deterministic: the same
// scenario (and seed) gives the same summary and trace, byte for byte once written.
#include "model/run_summary.hpp"
#include "model/scenario.hpp"

namespace prestage::sim {

// The scenario and result types are model/'s, shared with the GPU staging runtime.
using model::load_scenario;  // the tests and tools call sim::load_scenario (as sim/sweep.hpp)
using model::RunResult;
using model::Scenario;
using model::Summary;

RunResult run_scenario(const Scenario& s, bool record_trace);

}  // namespace prestage::sim
