// prestage-plot timeline: one row per track, one box per slice (see plots.hpp).
#include <fmt/format.h>

#include <gnuplot-iostream.h>
#include <algorithm>
#include <map>
#include <regex>
#include <tuple>

#include "experiments/plot/figure.hpp"
#include "experiments/plot/inputs.hpp"
#include "experiments/plot/plots.hpp"
#include "model/errors.hpp"

namespace prestage::plot {

namespace {

// Sort key of a track name: GPU tracks by GPU (compute, h2d, d2h, then workers in order, each
// host thread / stager / copy stream), other GPU tracks after, host tracks last.
struct TrackKey {
  int gpu, group, worker, sub;
  std::string name;
  bool operator<(const TrackKey& o) const {
    return std::tie(gpu, group, worker, sub, name) <
           std::tie(o.gpu, o.group, o.worker, o.sub, o.name);
  }
};
TrackKey track_key(const std::string& t) {
  static const std::regex gpu_re(R"(gpu(\d+)/(.*))"), worker_re(R"(w(\d+)/(.*))");
  std::smatch m;
  if (!std::regex_match(t, m, gpu_re)) return {1 << 20, 0, 0, 0, t};
  int gpu = std::stoi(m[1]);
  std::string rest = m[2];
  if (rest == "compute") return {gpu, 0, 0, 0, t};
  if (rest == "h2d") return {gpu, 1, 0, 0, t};
  if (rest == "d2h") return {gpu, 2, 0, 0, t};
  std::smatch w;
  if (std::regex_match(rest, w, worker_re)) {
    std::string sub = w[2];
    int s = sub == "host" ? 0 : sub == "stager" ? 1 : sub == "copy_stream" ? 2 : 3;
    return {gpu, 3, std::stoi(w[1]), s, t};
  }
  return {gpu, 4, 0, 0, t};
}

// Colour of each event kind (model/trace.hpp's EventKind); others cycle through a spare set.
std::string kind_colour(const std::string& kind, int* spare) {
  static const std::map<std::string, std::string> c = {
      {"compute", "#1f77b4"},   {"copy", "#2ca02c"},     {"alloc", "#9467bd"},
      {"free", "#b39ddb"},      {"sync", "#d62728"},     {"lock_wait", "#bdbdbd"},
      {"lock_held", "#636363"}, {"pin", "#ff7f0e"},      {"unpin", "#fdae6b"},
      {"trim", "#8c564b"},      {"policy", "#e377c2"},   {"cpu", "#17becf"},
      {"proof", "#bcbd22"},     {"partition", "#c6dbef"}};
  auto it = c.find(kind);
  if (it != c.end()) return it->second;
  static const char* extra[] = {"#7f7f7f", "#393b79", "#637939", "#8c6d31", "#843c39"};
  return extra[(*spare)++ % 5];
}

}  // namespace

void timeline(const TimelineOptions& o) {
  RunEvents ev = read_events(o.run_dir);
  double from = o.from, to = o.to < 0 ? ev.t_end : o.to;
  if (from < 0) throw InputError("", 0, "--from", "negative time");
  if (!(to > from)) throw InputError("", 0, "--to", "window is empty (to <= from)");

  auto wanted = [&](const Slice& s) {
    return (o.gpu < 0 || s.gpu == o.gpu || s.gpu < 0) && s.t_end >= from && s.t_start <= to;
  };
  std::map<TrackKey, int> tracks;
  for (const auto& s : ev.slices)
    if (wanted(s)) tracks.emplace(track_key(s.track), 0);
  if (tracks.empty())
    throw InputError(ev.file, 0, o.gpu >= 0 ? "--gpu" : "--from",
                     "no events in the selected window/GPU");
  int n = static_cast<int>(tracks.size()), i = 0;
  for (auto& [k, row] : tracks) row = n - 1 - i++;  // first track on top

  // Boxes per kind: x centre, y centre, x half-width, y half-height (s, rows).
  using Box = std::tuple<double, double, double, double>;
  std::map<std::string, std::vector<Box>> boxes;
  std::vector<std::pair<double, double>> ooms;  // t, row
  for (const auto& s : ev.slices) {
    if (!wanted(s)) continue;
    double y = tracks.at(track_key(s.track));
    if (s.kind == "oom") {
      ooms.emplace_back(s.t_start, y);
      continue;
    }
    double a = std::max(s.t_start, from), b = std::min(s.t_end, to);
    if (!(b > a)) continue;  // instants (zero-length calls) have no extent to draw
    if (s.kind == "partition")
      boxes[s.kind].emplace_back((a + b) / 2, y - 0.34, (b - a) / 2, 0.06);
    else
      boxes[s.kind].emplace_back((a + b) / 2, y + 0.08, (b - a) / 2, 0.3);
  }

  int height = std::max(520, 170 + 38 * n);
  Figure fig(o.out, o.width, height, o.force);
  Gnuplot& gp = fig.gp();
  std::string title = o.title.empty() ? "Timeline: " + o.run_dir : o.title;
  gp << "set title " << q(title) << "\n";
  gp << "set xlabel 'time (s)'\nset xrange [" << fmt::format("{}:{}", from, to) << "]\n";
  gp << fmt::format("set yrange [-0.6:{}]\n", n - 0.4);
  gp << "set ytics (";
  bool first = true;
  for (const auto& [k, row] : tracks) {
    gp << (first ? "" : ", ") << q(k.name) << " " << row;
    first = false;
  }
  gp << ") font ',12'\n";
  gp << "set grid xtics\nset key outside right top vertical box title 'event kind'\n";
  gp << "set style fill solid 0.85 noborder\nset lmargin 24\nset bmargin 4\n";

  std::vector<std::string> parts;
  int spare = 0;
  std::vector<std::string> order;
  for (const auto& [kind, v] : boxes) order.push_back(kind);
  for (const auto& kind : order)
    parts.push_back(fmt::format("'-' using 1:2:3:4 with boxxyerror lc rgb {} title {}",
                                q(kind_colour(kind, &spare)),
                                q(kind == "partition" ? "partition (span)" : kind)));
  if (!ooms.empty())
    parts.push_back(fmt::format("'-' using 1:2 with points pt 9 ps 2.2 lc rgb '#e00000' title {}",
                                q(fmt::format("out of memory ({})", ooms.size()))));
  gp << "plot ";
  for (std::size_t p = 0; p < parts.size(); ++p) gp << (p ? ", " : "") << parts[p];
  gp << "\n";
  for (const auto& kind : order) gp.send1d(boxes[kind]);
  if (!ooms.empty()) gp.send1d(ooms);
  fig.finish();
}

}  // namespace prestage::plot
