#pragma once
// Builds a calibration file (data/calibration/SCHEMA.md, `prestage-calibration/1`) from the
// probe's raw results JSON. Pure C++ (no CUDA), so a calibration can be regenerated from a
// committed raw file on any machine (`prestage-probe --from-json RAW --out-yaml F`).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace prestage::probe {

struct CalibrationInputs {
  nlohmann::ordered_json raw;  // the probe's raw output (schema "prestage-probe-raw/1")
  std::string raw_file;        // file name used in errors (InputError names it)
  std::string raw_ref;         // path recorded in every `source` (e.g. data/measurements/x.json)
  std::string kernels_yaml;    // optional: text of a YAML file whose top-level `kernels:` map of
                               // cost curves is copied in (each point needs log2_n, value, unit,
                               // source); empty = no kernels section
  std::string kernels_file;    // its name, for errors
  // optional: a GPU kernel benchmark (gpu_bench JSON); its measured curves and fits
  // (gpu/probe/kernel_curves.hpp) replace the kernels file's curves of the same name
  nlohmann::ordered_json gpu_bench;     // null = none
  std::string gpu_bench_file;           // its name, for errors
  std::string gpu_bench_ref;            // path cited in every kernel `source`
  std::vector<int> extrapolate_log2_n;  // sizes at which unmeasured curves record the fit's value
};

// Returns the calibration YAML text. Throws InputError(file, line, key, ...) when a key the
// calibration needs is missing or has the wrong type in the raw JSON (key = dotted JSON path), or
// when the kernels file is malformed (key = its YAML path), or when the GPU benchmark is
// (key = its JSON path, e.g. rows[3].median_ms).
std::string build_calibration_yaml(const CalibrationInputs& in);

}  // namespace prestage::probe
