#pragma once
// Readers for what prestage-plot draws: a run directory's events.jsonl (the event schema of
// model/trace.hpp, shared by simulated and measured runs) and a sweep CSV (`prestage sweep`).
// Contract: every problem in an input is an InputError naming the file, the 1-based line and the
// key (JSON field or CSV column); nothing is guessed or skipped silently.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace prestage::plot {

struct Slice {                    // one event of events.jsonl (not a memory sample)
  double t_start = 0, t_end = 0;  // s since run start
  std::string track, name, kind;
  int gpu = -1, worker = -1;
  std::int64_t partition = -1;
  std::uint64_t bytes = 0;  // B
  int line = 0;             // line in events.jsonl
};

struct MemoryPoint {  // a "memory" line: device memory counters of one GPU
  double t = 0;       // s
  int gpu = 0;
  std::uint64_t used = 0, reserved = 0, free = 0;  // B
};

struct RunEvents {
  std::string file;  // path of events.jsonl
  std::vector<Slice> slices;
  std::vector<MemoryPoint> memory;
  double t_end = 0;  // s, latest t_end seen
};

// Reads RUN_DIR/events.jsonl (InputError if the directory or file is missing or malformed).
RunEvents read_events(const std::string& run_dir);

struct Csv {
  std::string file;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // each the header's width
  std::vector<int> row_line;                   // 1-based file line of each row
  // Column index of `name`, else InputError naming `option` (the CLI flag that asked for it).
  std::size_t column(const std::string& name, const std::string& option) const;
  // Number in row r, column c (InputError naming file, line and column if it is not one).
  double number(std::size_t r, std::size_t c) const;
};

// Reads an RFC 4180 CSV with a header line (quoted fields, "" escapes; no newlines in fields).
Csv read_csv(const std::string& path);

// A field of RUN_DIR/summary.json by dotted path ("throughput_proofs_per_hour",
// "gpus.0.busy_share"); InputError naming the file and key if absent or not a number.
double summary_number(const std::string& run_dir, const std::string& dotted);
// Number of entries of summary.json's oom_events.
std::size_t summary_oom_count(const std::string& run_dir);

// What a run's manifest.json and summary.json say about it, for labels: the tool that wrote it
// ("prestage run --gpu", "prestage simulate"), the scenario's name, the kernels of a measured run
// (runtime.kernels: "real", "spin"; empty for a simulated one) and the makespan (s; < 0 if the
// run has no summary.json). A missing manifest.json leaves tool and scenario empty; a present but
// malformed one is an InputError naming the file and key.
struct RunInfo {
  std::string tool, scenario, kernels;
  double makespan = -1;  // s
};
RunInfo read_run_info(const std::string& run_dir);
// "prestage run --gpu: e01_one_worker_baseline (makespan 12.34 s)" (without_scenario: "prestage
// run --gpu (makespan 12.34 s)"); the run directory when the manifest is missing.
std::string run_label(const std::string& run_dir, const RunInfo& info,
                      bool without_scenario = false);

// The makespan figure of one scenario of a `prestage validate` report.json
// (model/validation.cpp validation_json): measured median, min, max, the model's value and its
// relative error (NaN when the report has null: a median of 0).
struct ErrorRow {
  std::string scenario;
  bool held_back = false;
  double median = 0, min = 0, max = 0, model = 0, rel_error = 0;
};
// Reads REPORT's .scenarios[] (InputError naming the file and the key, e.g.
// "scenarios[2].figures[makespan].median", on anything missing or of the wrong type).
std::vector<ErrorRow> read_validation_report(const std::string& report);

}  // namespace prestage::plot
