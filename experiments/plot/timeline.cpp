// prestage-plot timeline: one row per track, one box per slice (see plots.hpp).
#include <fmt/format.h>

#include <gnuplot-iostream.h>
#include <algorithm>
#include <map>
#include <regex>
#include <set>
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

// What a box's colour stands for: kernels and CPU steps by kernel family (issue 22: one colour
// per family), every other slice by its event kind (model/trace.hpp's EventKind). `order` sorts
// the legend: families first, then kinds, the partition band and out-of-memory last.
struct Category {
  int order;
  std::string id, title, colour;
  bool operator<(const Category& o) const { return std::tie(order, id) < std::tie(o.order, o.id); }
};

bool starts(const std::string& s, const char* p) {
  return s.rfind(p, 0) == 0;
}

Category category(const Slice& s, bool spin_run) {
  if (s.kind == "compute") {
    if (spin_run) return {4, "k_spin", "spin kernels (timed stand-ins)", "#bcbd22"};
    if (starts(s.name, "h_input") || starts(s.name, "coset") || starts(s.name, "intt") ||
        starts(s.name, "ntt") || starts(s.name, "pointwise"))
      return {0, "k_ntt", "NTTs (h_input_a/b/c, coset_intt_h)", "#1f77b4"};
    if (s.name == "msm_h") return {1, "k_msm_h", "MSM H", "#d95f02"};
    if (starts(s.name, "msm_")) return {2, "k_porep", "PoRep MSMs (L, A, B_G1)", "#7570b3"};
    return {3, "k_other", "other kernels", "#393b79"};
  }
  if (s.kind == "cpu") return {5, "k_cpu", "CPU steps (synthesis, B_G2)", "#17becf"};
  static const std::map<std::string, std::string> c = {
      {"copy", "#2ca02c"},   {"alloc", "#a6761d"},     {"free", "#e6c36b"},
      {"sync", "#e7298a"},   {"lock_wait", "#cccccc"}, {"lock_held", "#636363"},
      {"pin", "#fdae6b"},    {"unpin", "#fdd9b5"},     {"trim", "#8c564b"},
      {"policy", "#f4a3d0"}, {"proof", "#9edae5"},     {"partition", "#c6dbef"}};
  if (s.kind == "partition") return {98, s.kind, "partition (span)", c.at(s.kind)};
  auto it = c.find(s.kind);
  if (it != c.end()) return {10, s.kind, s.kind, it->second};
  static const char* extra[] = {"#7f7f7f", "#393b79", "#637939", "#8c6d31", "#843c39"};
  return {11, s.kind, s.kind, extra[std::hash<std::string>{}(s.kind) % 5]};
}

// Boxes: x centre, y centre, x half-width, y half-height (s, rows).
using Box = std::tuple<double, double, double, double>;

struct Panel {
  std::string label;
  RunEvents ev;
  std::map<TrackKey, int> tracks;  // -> row (first track on top)
  std::map<Category, std::vector<Box>> boxes;
  std::vector<std::pair<double, double>> ooms;  // t, row
};

}  // namespace

void timeline(const TimelineOptions& o) {
  if (o.run_dirs.empty()) throw InputError("", 0, "run_dir", "give at least one run directory");
  if (!o.labels.empty() && o.labels.size() != o.run_dirs.size())
    throw InputError("", 0, "--label",
                     fmt::format("{} labels for {} runs: give one per run or none", o.labels.size(),
                                 o.run_dirs.size()));
  // Every input is read (and checked) before gnuplot starts.
  std::vector<Panel> panels(o.run_dirs.size());
  double end = 0;
  for (std::size_t k = 0; k < panels.size(); ++k) {
    panels[k].ev = read_events(o.run_dirs[k]);
    end = std::max(end, panels[k].ev.t_end);
  }
  double from = o.from, to = o.to < 0 ? end : o.to;
  if (from < 0) throw InputError("", 0, "--from", "negative time");
  if (!(to > from)) throw InputError("", 0, "--to", "window is empty (to <= from)");

  auto wanted = [&](const Slice& s) {
    return (o.gpu < 0 || s.gpu == o.gpu || s.gpu < 0) && s.t_end >= from && s.t_start <= to;
  };
  std::set<Category> legend;
  bool any_oom = false;
  std::size_t longest_track = 0;
  // Every panel has the same rows, the union of the runs' tracks, so that one track is at one
  // height in each (a run without, e.g., kernels shows that row empty).
  std::map<TrackKey, int> rows;
  for (const auto& P : panels) {
    bool any = false;
    for (const auto& s : P.ev.slices)
      if (wanted(s)) {
        rows.emplace(track_key(s.track), 0);
        any = true;
      }
    if (!any)
      throw InputError(P.ev.file, 0, o.gpu >= 0 ? "--gpu" : "--from",
                       "no events in the selected window/GPU");
  }
  {
    int n = static_cast<int>(rows.size()), i = 0;
    for (auto& [key, row] : rows) {
      row = n - 1 - i++;
      longest_track = std::max(longest_track, key.name.size());
    }
  }
  for (std::size_t k = 0; k < panels.size(); ++k) {
    Panel& P = panels[k];
    RunInfo info = read_run_info(o.run_dirs[k]);
    P.label = o.labels.empty() ? run_label(o.run_dirs[k], info) : o.labels[k];
    const bool spin = info.kernels == "spin";
    P.tracks = rows;
    for (const auto& s : P.ev.slices) {
      if (!wanted(s)) continue;
      double y = P.tracks.at(track_key(s.track));
      if (s.kind == "oom") {
        P.ooms.emplace_back(s.t_start, y);
        any_oom = true;
        continue;
      }
      double a = std::max(s.t_start, from), b = std::min(s.t_end, to);
      if (!(b > a)) continue;  // instants (zero-length calls) have no extent to draw
      Category c = category(s, spin);
      legend.insert(c);
      if (s.kind == "partition")
        P.boxes[c].emplace_back((a + b) / 2, y - 0.34, (b - a) / 2, 0.06);
      else
        P.boxes[c].emplace_back((a + b) / 2, y + 0.08, (b - a) / 2, 0.3);
    }
  }

  // Layout in pixels: a title band, then per panel its title, its rows and its tic labels; the
  // bottom panel also the x label. One legend right of the panels, beside the top one.
  const bool multi = panels.size() > 1;
  const int title_px = 50, panel_title_px = multi ? 34 : 0, row_px = 34, tics_px = 34,
            xlabel_px = 34, gap_px = 14;
  const int legend_rows = static_cast<int>(legend.size()) + (any_oom ? 1 : 0);
  std::vector<int> plot_px;
  int height = title_px + xlabel_px;
  for (const auto& P : panels) {
    plot_px.push_back(std::max(120, row_px * static_cast<int>(P.tracks.size()) + 20));
    height += panel_title_px + plot_px.back() + tics_px + gap_px;
  }
  const int legend_px = 60 + 26 * legend_rows;
  if (height < legend_px + title_px + 40) {  // the legend must fit beside the panels
    int extra = legend_px + title_px + 40 - height;
    plot_px.back() += extra;
    height += extra;
  }
  height = std::max(height, 420);
  const double W = o.width, H = height;
  const double left = std::max(150.0, 9.5 * static_cast<double>(longest_track) + 40) / W;
  // The legend's column: gnuplot sizes a key by its own (generous) estimate of the text's width
  // and drops entries that would cross the canvas' edge, so the column leaves it room.
  std::size_t longest_entry = 26;  // its title
  for (const auto& c : legend) longest_entry = std::max(longest_entry, c.title.size());
  const double right = 1 - (11.0 * static_cast<double>(longest_entry) + 110) / W;

  Figure fig(o.out, o.width, height, o.force);
  Gnuplot& gp = fig.gp();
  std::string title = o.title;
  if (title.empty())
    title = multi ? "Timelines on one time axis (top to bottom as listed)"
                  : "Timeline: " + panels[0].label;
  gp << "set multiplot title " << q(title) << " font ',15'\n";
  gp << "set xrange [" << fmt::format("{}:{}", from, to) << "]\n";
  gp << "set grid xtics\nset style fill solid 0.85 noborder\n";
  gp << fmt::format("set lmargin at screen {}\nset rmargin at screen {}\n", left, right);
  double y_top = 1 - title_px / H;  // screen fraction, moving down
  for (std::size_t k = 0; k < panels.size(); ++k) {
    const Panel& P = panels[k];
    const bool last = k + 1 == panels.size();
    double top = y_top - panel_title_px / H, bottom = top - plot_px[k] / H;
    y_top = bottom - (tics_px + gap_px) / H;
    gp << fmt::format("set tmargin at screen {}\nset bmargin at screen {}\n", top, bottom);
    std::string ptitle = P.label;
    if (!P.ooms.empty()) ptitle += fmt::format(", out of memory x{}", P.ooms.size());
    gp << "set title " << (multi ? q(ptitle) : std::string("''")) << " font ',14'\n";
    gp << (last ? "set xlabel 'time (s)'\n" : "unset xlabel\n");
    const int n = static_cast<int>(P.tracks.size());
    gp << fmt::format("set yrange [-0.6:{}]\n", n - 0.4);
    gp << "set ytics (";
    bool first = true;
    for (const auto& [key, row] : P.tracks) {
      gp << (first ? "" : ", ") << q(key.name) << " " << row;
      first = false;
    }
    gp << ") font ',12'\n";
    std::vector<std::string> parts;
    for (const auto& [c, v] : P.boxes)
      parts.push_back(
          fmt::format("'-' using 1:2:3:4 with boxxyerror lc rgb {} notitle", q(c.colour)));
    if (!P.ooms.empty())
      parts.push_back("'-' using 1:2 with points pt 9 ps 2.2 lc rgb '#e00000' notitle");
    if (k == 0) {  // the legend: every category of any panel, once
      gp << fmt::format(
          "set key at screen {}, screen {} left top vertical Left reverse box opaque width 1 "
          "spacing 1.15 "
          "title 'kernel family / event kind' font ',12'\n",
          right + 12 / W, top);
      for (const auto& c : legend)
        parts.push_back(fmt::format("NaN with boxes lc rgb {} title {}", q(c.colour), q(c.title)));
      if (any_oom) {
        std::size_t total = 0;
        for (const auto& p : panels) total += p.ooms.size();
        parts.push_back(
            fmt::format("NaN with points pt 9 ps 2.2 lc rgb '#e00000' title {}",
                        q(fmt::format("out of memory ({}{})", total, multi ? ", all runs" : ""))));
      }
    } else {
      gp << "unset key\n";
    }
    gp << "plot ";
    for (std::size_t p = 0; p < parts.size(); ++p) gp << (p ? ", " : "") << parts[p];
    gp << "\n";
    for (const auto& [c, v] : P.boxes) gp.send1d(v);
    if (!P.ooms.empty()) gp.send1d(P.ooms);
  }
  gp << "unset multiplot\n";
  fig.finish();
}

}  // namespace prestage::plot
