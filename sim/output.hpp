#pragma once
// Output directory of one simulation: summary.json, events.jsonl, trace.json, manifest.json.
// Written into a unique temporary directory beside DIR (.DIR.prestage-tmp-XXXXXX) and renamed to
// DIR at the end, so a failure leaves nothing behind (model/output_files.hpp).
#include <cstdint>
#include <string>

#include "sim/runner.hpp"

namespace prestage::sim {

// FNV-1a 64-bit hash of a file's bytes, as 16 hex digits ("" if unreadable).
std::string file_hash(const std::string& path);

// Writes the four files; `command_line` is recorded in the manifest, which carries
// "prestage_output": 1. Refuses (InputError) to replace an existing DIR unless `overwrite`, and
// even then unless DIR is a directory prestage wrote and not /, home, the working directory or a
// parent of it.
void write_run(const std::string& dir, const Scenario& s, const RunResult& r,
               const std::string& command_line, bool overwrite);

}  // namespace prestage::sim
