#pragma once
// The figures of prestage-plot. Each reads its inputs fully (InputError on any problem, before
// gnuplot starts), then draws one PNG through Figure (figure.hpp). `force`: replace an existing
// PNG (never a directory); without it an existing output is an InputError.
#include <string>
#include <utility>
#include <vector>

namespace prestage::plot {

// Timeline of one or more runs: one panel per run, stacked top to bottom in the order given, all
// on one time axis ([from, to); to < 0: the latest end of the runs), each titled by its label
// (default: the run's manifest tool and scenario name, and its makespan). In each panel a row per
// track of events.jsonl (GPU compute, H2D and D2H copy directions, then each worker's host
// thread, stager and copy stream, then host threads), a box per slice: kernels and CPU steps
// coloured by kernel family (NTTs, MSM H, the PoRep MSMs, spin kernels, CPU steps), the rest by
// event kind; each partition's span as a thin band under its worker's row, out-of-memory events
// marked. One legend, the union of the panels'. Times in s.
struct TimelineOptions {
  std::vector<std::string> run_dirs;  // one panel each, top to bottom
  std::vector<std::string> labels;    // empty, or one per run
  std::string out, title;
  double from = 0, to = -1;  // s
  int gpu = -1;              // only this GPU's tracks (and host tracks); -1: all
  int width = 1800;          // px; height follows the number of tracks
  bool force = false;
};
void timeline(const TimelineOptions& o);

// Device memory of one GPU over time. One run: used, reserved and free (GiB, cudaMemGetInfo's
// view as the run recorded it) as step lines, out-of-memory events as red dashed vertical lines.
// Several runs: each run's used (solid) and reserved (dashed) in its own colour on one plot, over
// one time axis (to < 0: the latest end of the runs), and its out-of-memory events as markers of
// its colour in its own row at the top; labels as for the timeline.
struct MemoryOptions {
  std::vector<std::string> run_dirs;
  std::vector<std::string> labels;  // empty, or one per run
  std::string out, title;
  double from = 0, to = -1;  // s
  int gpu = 0;
  int width = 1600, height = 800;  // px
  bool force = false;
};
void memory(const MemoryOptions& o);

// The model's makespan error per scenario of one or more `prestage validate` report.json files:
// a row per scenario (grouped by report, each labelled; default: the report's folder name), the
// model's error against the measured median as a point with its value, the measured runs' range
// relative to the median as an error bar around 0, the +-goal band (5%) shaded; held-back
// scenarios drawn as open diamonds of another colour and "(held back)" in their row's name.
struct ErrorsOptions {
  std::vector<std::string> reports;  // report.json paths
  std::vector<std::string> labels;   // empty, or one per report
  std::string out, title;
  double goal = 0.05;  // relative
  int width = 1500;    // px; height follows the number of scenarios
  bool force = false;
};
void errors(const ErrorsOptions& o);

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
// One bar per run, or with several values a group of bars per run (one per value, e.g. each
// worker's device-wide wait), with a legend of the series and no relative labels.
struct BarsOptions {
  std::vector<std::pair<std::string, std::string>> runs;  // label, run dir
  std::vector<std::string> values;  // dotted summary.json keys (empty: throughput)
  std::vector<std::string> series;  // legend label per value (default: the key)
  std::string out, y_label = "throughput (proofs/h)", title;
  int width = 1200, height = 750;  // px
  bool force = false;
};
void bars(const BarsOptions& o);

}  // namespace prestage::plot
