#pragma once
// Output directory of one run (simulated or measured on a GPU): summary.json, events.jsonl,
// trace.json, manifest.json. Written into DIR.tmp and renamed to DIR at the end, so a failure
// leaves no half-written DIR.
#include <cstdint>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "model/run_summary.hpp"
#include "model/scenario.hpp"

namespace prestage::model {

// FNV-1a 64-bit hash of a file's bytes, as 16 hex digits ("" if unreadable).
std::string file_hash(const std::string& path);

// The scenario's resolved policy parameters, name -> value as text with unit, defaults included
// (manifest.json's `policy_params`, for both drivers).
nlohmann::json policy_params_json(const Scenario& s);

// Writes the four files; `command_line` is recorded in the manifest. Refuses (InputError) to
// replace an existing DIR unless `overwrite`.
// `tool` names the driver in the manifest ("prestage simulate", "prestage run --gpu");
// `extra_manifest` (an object, may be null) adds driver-specific fields (the GPU, its driver).
void write_run(const std::string& dir, const Scenario& s, const RunResult& r,
               const std::string& command_line, bool overwrite,
               const std::string& tool = "prestage simulate",
               const nlohmann::json* extra_manifest = nullptr);

}  // namespace prestage::model
