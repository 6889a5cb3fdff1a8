// prestage-plot memory: device memory counters of one GPU over time (see plots.hpp).
#include <fmt/format.h>

#include <gnuplot-iostream.h>
#include <algorithm>
#include <tuple>

#include "experiments/plot/figure.hpp"
#include "experiments/plot/inputs.hpp"
#include "experiments/plot/plots.hpp"
#include "model/errors.hpp"

namespace prestage::plot {

void memory(const MemoryOptions& o) {
  RunEvents ev = read_events(o.run_dir);
  double from = o.from, to = o.to < 0 ? ev.t_end : o.to;
  if (from < 0) throw InputError("", 0, "--from", "negative time");
  if (!(to > from)) throw InputError("", 0, "--to", "window is empty (to <= from)");
  const double gib = 1024.0 * 1024 * 1024;
  // t (s), used, reserved, free (GiB); the last sample before the window opens it.
  std::vector<std::tuple<double, double, double, double>> pts;
  const MemoryPoint* before = nullptr;
  for (const auto& m : ev.memory) {
    if (m.gpu != o.gpu) continue;
    if (m.t < from) {
      before = &m;
      continue;
    }
    if (m.t > to) break;
    if (pts.empty() && before)
      pts.emplace_back(from, before->used / gib, before->reserved / gib, before->free / gib);
    pts.emplace_back(m.t, m.used / gib, m.reserved / gib, m.free / gib);
  }
  if (pts.empty() && before)
    pts.emplace_back(from, before->used / gib, before->reserved / gib, before->free / gib);
  if (pts.empty())
    throw InputError(ev.file, 0, "--gpu",
                     fmt::format("no device-memory samples for GPU {} in the window", o.gpu));
  auto last = pts.back();
  std::get<0>(last) = to;  // hold the last value to the window's end
  pts.push_back(last);

  std::vector<double> oom_t;
  for (const auto& s : ev.slices)
    if (s.kind == "oom" && s.gpu == o.gpu && s.t_start >= from && s.t_start <= to)
      oom_t.push_back(s.t_start);

  double top = 0;
  for (const auto& p : pts) top = std::max({top, std::get<1>(p), std::get<2>(p), std::get<3>(p)});

  Figure fig(o.out, o.width, o.height, o.force);
  Gnuplot& gp = fig.gp();
  std::string title =
      o.title.empty() ? fmt::format("Device memory, GPU {}: {}", o.gpu, o.run_dir) : o.title;
  gp << "set title " << q(title) << "\n";
  gp << "set xlabel 'time (s)'\nset ylabel 'device memory (GiB)'\n";
  gp << fmt::format("set xrange [{}:{}]\nset yrange [0:{}]\n", from, to, top * 1.12 + 0.01);
  gp << "set grid\nset key outside right top vertical box\n";
  // One dashed line per out-of-memory event (drawn as arrows so they span the plot's height).
  for (double t : oom_t)
    gp << fmt::format(
        "set arrow from {0},graph 0 to {0},graph 1 nohead lc rgb '#e00000' dt 2 "
        "lw 1\n",
        t);
  gp << "plot '-' using 1:2 with steps lw 2 lc rgb '#1f77b4' title 'used (live allocations)', "
        "'-' using 1:3 with steps lw 2 lc rgb '#ff7f0e' dt 2 title 'reserved (cudaMalloc + pool)', "
        "'-' using 1:4 with steps lw 2 lc rgb '#2ca02c' title 'free (cudaMemGetInfo)'";
  gp << ", NaN with lines lc rgb '#e00000' dt 2 lw 2 title "
     << q(fmt::format("out of memory ({})", oom_t.size())) << "\n";
  gp.send1d(pts);
  gp.send1d(pts);
  gp.send1d(pts);
  fig.finish();
}

}  // namespace prestage::plot
