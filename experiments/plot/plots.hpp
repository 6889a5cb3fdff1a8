#pragma once
// The figures of prestage-plot. Each reads its inputs fully (InputError on any problem, before
// gnuplot starts), then draws one PNG through Figure (figure.hpp). `force`: replace an existing
// PNG (never a directory); without it an existing output is an InputError.
#include <string>
#include <utility>
#include <vector>

namespace prestage::plot {

// Timeline of one run: a row per track of events.jsonl (GPU compute, H2D and D2H copy
// directions, then each worker's host thread, stager and copy stream, then host threads), a box
// per slice coloured by kind, each partition's span as a thin band under its worker's row, and
// out-of-memory events marked. Times in s; [from, to) selects a window (to < 0: the run's end).
struct TimelineOptions {
  std::string run_dir, out, title;
  double from = 0, to = -1;  // s
  int gpu = -1;              // only this GPU's tracks (and host tracks); -1: all
  int width = 1800;          // px; height follows the number of tracks
  bool force = false;
};
void timeline(const TimelineOptions& o);

// Device memory of one GPU over time: used, reserved and free (GiB, cudaMemGetInfo's view as the
// run recorded it) as step lines, out-of-memory events as red dashed vertical lines.
struct MemoryOptions {
  std::string run_dir, out, title;
  double from = 0, to = -1;  // s
  int gpu = 0;
  int width = 1600, height = 800;  // px
  bool force = false;
};
void memory(const MemoryOptions& o);

// Heatmap of a sweep CSV: column `value` over categorical axes `x` and `y` (values in order of
// first appearance), the number printed in each cell; cells whose `oom` column is > 0 framed in
// red and labelled "OOM xN". `where` filters rows (column = value); `facet` draws one panel per
// value of that column. Each (facet, x, y) must select exactly one row.
struct HeatmapOptions {
  std::string csv, out, x, y, value, oom = "oom_events", facet, title, value_label, x_label,
                                     y_label;
  std::vector<std::pair<std::string, std::string>> where;
  int width = 0, height = 700;  // px; width 0: 900 per panel
  bool force = false;
};
void heatmap(const HeatmapOptions& o);

// Bars comparing one summary.json number (dotted key) across labelled runs; each bar shows its
// value, its change against the first bar, and its out-of-memory count when there were any.
struct BarsOptions {
  std::vector<std::pair<std::string, std::string>> runs;  // label, run dir
  std::string out, value = "throughput_proofs_per_hour", y_label = "throughput (proofs/h)", title;
  int width = 1200, height = 750;  // px
  bool force = false;
};
void bars(const BarsOptions& o);

}  // namespace prestage::plot
