#pragma once
// Output directory of one run (simulated or measured on a GPU): summary.json, events.jsonl,
// trace.json, manifest.json. Written into DIR.tmp and renamed to DIR at the end, so a failure
// leaves no half-written DIR.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/run_summary.hpp"
#include "model/scenario.hpp"

namespace prestage::model {

// SHA-256 of a file's bytes (OpenSSL's libcrypto), as 64 lowercase hex digits ("" if
// unreadable): the digest a manifest records of the scenario, calibration and pipeline files.
std::string file_sha256(const std::string& path);
// FNV-1a 64 of a file's bytes, 16 hex digits: only to check records written before manifests
// carried SHA-256 (their `hash_fnv1a64` fields).
std::string file_fnv1a64(const std::string& path);
// Whether `path` is the file a manifest entry recorded: by its `sha256`, else by a record's
// legacy `hash_fnv1a64`; nullopt when the entry carries neither (or `entry` is no object).
std::optional<bool> same_file_as_recorded(const nlohmann::json& entry, const std::string& path);

// The scenario's resolved policy parameters, name -> value as text with unit, defaults included
// (manifest.json's `policy_params`, for both drivers).
nlohmann::json policy_params_json(const Scenario& s);

// The measured runs under `root`: itself, or the directories up to 4 levels below it, whose
// manifest.json says "tool": "prestage run --gpu", sorted. InputError naming the file on a
// manifest.json that is not JSON.
std::vector<std::string> measured_run_dirs(const std::string& root);

// Writes the four files; `command_line` is recorded in the manifest. Refuses (InputError) to
// replace an existing DIR unless `overwrite`.
// `tool` names the driver in the manifest ("prestage simulate", "prestage run --gpu");
// `extra_manifest` (an object, may be null) adds driver-specific fields (the GPU, its driver).
void write_run(const std::string& dir, const Scenario& s, const RunResult& r,
               const std::string& command_line, bool overwrite,
               const std::string& tool = "prestage simulate",
               const nlohmann::json* extra_manifest = nullptr);

}  // namespace prestage::model
