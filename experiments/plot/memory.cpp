// prestage-plot memory: device memory counters of one GPU over time, of one or more runs (see
// plots.hpp).
#include <fmt/format.h>

#include <gnuplot-iostream.h>
#include <algorithm>
#include <tuple>

#include "experiments/plot/figure.hpp"
#include "experiments/plot/inputs.hpp"
#include "experiments/plot/plots.hpp"
#include "model/errors.hpp"

namespace prestage::plot {

namespace {

const double kGiB = 1024.0 * 1024 * 1024;

struct Series {
  std::string label;
  // t (s), used, reserved, free (GiB); the last sample before the window opens it, the last
  // sample is held to the window's end.
  std::vector<std::tuple<double, double, double, double>> pts;
  std::vector<double> oom_t;  // s
};

Series read_series(const RunEvents& ev, int gpu, double from, double to) {
  Series r;
  const MemoryPoint* before = nullptr;
  for (const auto& m : ev.memory) {
    if (m.gpu != gpu) continue;
    if (m.t < from) {
      before = &m;
      continue;
    }
    if (m.t > to) break;
    if (r.pts.empty() && before)
      r.pts.emplace_back(from, before->used / kGiB, before->reserved / kGiB, before->free / kGiB);
    r.pts.emplace_back(m.t, m.used / kGiB, m.reserved / kGiB, m.free / kGiB);
  }
  if (r.pts.empty() && before)
    r.pts.emplace_back(from, before->used / kGiB, before->reserved / kGiB, before->free / kGiB);
  if (r.pts.empty())
    throw InputError(ev.file, 0, "--gpu",
                     fmt::format("no device-memory samples for GPU {} in the window", gpu));
  auto last = r.pts.back();
  std::get<0>(last) = to;
  r.pts.push_back(last);
  for (const auto& s : ev.slices)
    if (s.kind == "oom" && s.gpu == gpu && s.t_start >= from && s.t_start <= to)
      r.oom_t.push_back(s.t_start);
  return r;
}

}  // namespace

void memory(const MemoryOptions& o) {
  if (o.run_dirs.empty()) throw InputError("", 0, "run_dir", "give at least one run directory");
  if (!o.labels.empty() && o.labels.size() != o.run_dirs.size())
    throw InputError("", 0, "--label",
                     fmt::format("{} labels for {} runs: give one per run or none", o.labels.size(),
                                 o.run_dirs.size()));
  std::vector<RunEvents> evs;
  double end = 0;
  for (const auto& d : o.run_dirs) {
    evs.push_back(read_events(d));
    end = std::max(end, evs.back().t_end);
  }
  double from = o.from, to = o.to < 0 ? end : o.to;
  if (from < 0) throw InputError("", 0, "--from", "negative time");
  if (!(to > from)) throw InputError("", 0, "--to", "window is empty (to <= from)");
  // Default labels: when every run is of one scenario, the title names it and the legend only
  // what differs (the tool, the makespan).
  std::vector<RunInfo> infos;
  bool one_scenario = true;
  for (const auto& d : o.run_dirs) {
    infos.push_back(read_run_info(d));
    one_scenario = one_scenario && !infos.back().tool.empty() &&
                   infos.back().scenario == infos.front().scenario;
  }
  const bool short_labels = one_scenario && infos.size() > 1;
  std::vector<Series> runs;
  double top = 0;
  for (std::size_t k = 0; k < evs.size(); ++k) {
    runs.push_back(read_series(evs[k], o.gpu, from, to));
    runs.back().label =
        o.labels.empty() ? run_label(o.run_dirs[k], infos[k], short_labels) : o.labels[k];
    for (const auto& p : runs.back().pts)
      top = std::max({top, std::get<1>(p), std::get<2>(p), runs.size() == 1 ? std::get<3>(p) : 0});
  }
  const bool multi = runs.size() > 1;

  Figure fig(o.out, o.width, o.height, o.force);
  Gnuplot& gp = fig.gp();
  std::string title = o.title;
  if (title.empty())
    title = multi ? fmt::format("Device memory, GPU {}, of {} runs{}", o.gpu, runs.size(),
                                short_labels ? ": " + infos[0].scenario : std::string())
                  : fmt::format("Device memory, GPU {}: {}", o.gpu, runs[0].label);
  gp << "set title " << q(title) << "\n";
  gp << "set xlabel 'time (s)'\nset ylabel 'device memory (GiB)'\n";
  gp << "set grid\n";
  if (!multi) {
    const Series& r = runs[0];
    gp << fmt::format("set xrange [{}:{}]\nset yrange [0:{}]\n", from, to, top * 1.12 + 0.01);
    gp << "set key outside right top vertical box\n";
    // One dashed line per out-of-memory event (drawn as arrows so they span the plot's height).
    for (double t : r.oom_t)
      gp << fmt::format(
          "set arrow from {0},graph 0 to {0},graph 1 nohead lc rgb '#e00000' dt 2 lw 1\n", t);
    gp << "plot '-' using 1:2 with steps lw 2 lc rgb '#1f77b4' title 'used (live allocations)', "
          "'-' using 1:3 with steps lw 2 lc rgb '#ff7f0e' dt 2 title 'reserved (cudaMalloc + "
          "pool)', '-' using 1:4 with steps lw 2 lc rgb '#2ca02c' title 'free (cudaMemGetInfo)'";
    gp << ", NaN with lines lc rgb '#e00000' dt 2 lw 2 title "
       << q(fmt::format("out of memory ({})", r.oom_t.size())) << "\n";
    gp.send1d(r.pts);
    gp.send1d(r.pts);
    gp.send1d(r.pts);
    fig.finish();
    return;
  }
  // Several runs: used solid, reserved dashed, in the run's colour; each run's out-of-memory
  // events as triangles of its colour in its own row above the lines.
  static const char* colour[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2"};
  bool any_oom = false;
  for (const auto& r : runs) any_oom = any_oom || !r.oom_t.empty();
  const double row_h = std::max(top, 0.01) * 0.06;
  const double lines_top = std::max(top, 0.01) * 1.05;
  const double ymax = any_oom ? lines_top + row_h * (runs.size() + 0.5) : lines_top + 0.01;
  gp << fmt::format("set xrange [{}:{}]\nset yrange [0:{}]\n", from, to, ymax);
  // The legend below the x label, a column per run (gnuplot's own placement of a key below the
  // plot overlaps the x label).
  const double key_px = 3 * 24 + 20;
  gp << fmt::format("set bmargin at screen {}\n", (key_px + 70) / o.height);
  gp << fmt::format(
      "set key at screen 0.5, screen {} center bottom vertical maxrows 3 Left reverse box "
      "font ',12'\n",
      14.0 / o.height);
  if (any_oom) {  // the OOM rows' band, kept clear of the memory lines by a rule
    gp << fmt::format(
        "set arrow from graph 0, first {0} to graph 1, first {0} nohead lc rgb '#999999' dt 3\n",
        lines_top);
    gp << fmt::format(
        "set label 'out-of-memory events' at graph 0.005, first {} left front font ',11' tc "
        "rgb '#555555'\n",
        ymax - row_h * 0.35);
  }
  // Legend: a column per run (used, reserved, out of memory).
  std::vector<std::string> parts;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const char* c = colour[k % 6];
    parts.push_back(fmt::format("'-' using 1:2 with steps lw 2 lc rgb '{}' title {}", c,
                                q(runs[k].label + ": used")));
    parts.push_back(fmt::format("'-' using 1:3 with steps lw 1.5 dt 2 lc rgb '{}' title {}", c,
                                q("... reserved")));
    parts.push_back(fmt::format("{} with points pt 11 ps 1.8 lc rgb '{}' title {}",
                                runs[k].oom_t.empty() ? "NaN" : "'-' using 1:2", c,
                                q(fmt::format("... out of memory ({})", runs[k].oom_t.size()))));
  }
  gp << "plot ";
  for (std::size_t p = 0; p < parts.size(); ++p) gp << (p ? ", " : "") << parts[p];
  gp << "\n";
  for (std::size_t k = 0; k < runs.size(); ++k) {
    gp.send1d(runs[k].pts);
    gp.send1d(runs[k].pts);
    if (runs[k].oom_t.empty()) continue;
    std::vector<std::pair<double, double>> pts;
    for (double t : runs[k].oom_t)
      pts.emplace_back(t, lines_top + row_h * (static_cast<double>(runs.size() - k) - 0.3));
    gp.send1d(pts);
  }
  fig.finish();
}

}  // namespace prestage::plot
