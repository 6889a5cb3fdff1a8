// prestage-plot heatmap: a sweep CSV's value over two categorical axes (see plots.hpp).
#include <fmt/format.h>

#include <gnuplot-iostream.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include "experiments/plot/figure.hpp"
#include "experiments/plot/inputs.hpp"
#include "experiments/plot/plots.hpp"
#include "model/errors.hpp"

namespace prestage::plot {

namespace {
// Distinct values in order of first appearance.
struct Axis {
  std::vector<std::string> values;
  int index(const std::string& v) {
    auto it = std::find(values.begin(), values.end(), v);
    if (it != values.end()) return static_cast<int>(it - values.begin());
    values.push_back(v);
    return static_cast<int>(values.size() - 1);
  }
};
struct Cell {
  double value = std::numeric_limits<double>::quiet_NaN();
  double oom = 0;
  int line = 0;
  bool infeasible = false;  // the sweep's `infeasible` column: not simulated, drawn grey
};
std::string cell_text(double v) {
  if (std::isnan(v)) return "-";
  double a = std::fabs(v);
  return a >= 100 ? fmt::format("{:.0f}", v)
         : a >= 1 ? fmt::format("{:.2f}", v)
                  : fmt::format("{:.3g}", v);
}
}  // namespace

void heatmap(const HeatmapOptions& o) {
  Csv csv = read_csv(o.csv);
  std::size_t cx = csv.column(o.x, "--x"), cy = csv.column(o.y, "--y"),
              cv = csv.column(o.value, "--value"), co = csv.column(o.oom, "--oom");
  std::size_t cf = o.facet.empty() ? 0 : csv.column(o.facet, "--facet");
  std::vector<std::pair<std::size_t, std::string>> where;
  for (const auto& [k, v] : o.where) where.emplace_back(csv.column(k, "--where"), v);
  // Optional (sweeps since 2026-12-06): a non-empty `infeasible` cell marks a point not simulated.
  const auto inf_it = std::find(csv.header.begin(), csv.header.end(), "infeasible");
  const std::size_t ci = static_cast<std::size_t>(inf_it - csv.header.begin());
  const bool has_infeasible = inf_it != csv.header.end();

  Axis ax, ay, af;
  std::map<std::tuple<int, int, int>, Cell> cells;  // facet, x, y
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (std::size_t r = 0; r < csv.rows.size(); ++r) {
    bool keep = true;
    for (const auto& [c, v] : where) keep = keep && csv.rows[r][c] == v;
    if (!keep) continue;
    int f = o.facet.empty() ? 0 : af.index(csv.rows[r][cf]);
    auto key = std::make_tuple(f, ax.index(csv.rows[r][cx]), ay.index(csv.rows[r][cy]));
    auto [it, fresh] = cells.emplace(key, Cell{});
    if (!fresh)
      throw InputError(csv.file, csv.row_line[r], o.x + "," + o.y,
                       fmt::format("same cell as line {}: pick one row per cell with --where or "
                                   "--facet",
                                   it->second.line));
    if (has_infeasible && !csv.rows[r][ci].empty()) {
      it->second.line = csv.row_line[r];
      it->second.infeasible = true;
      continue;
    }
    it->second = {csv.number(r, cv), csv.number(r, co), csv.row_line[r]};
    lo = std::min(lo, it->second.value);
    hi = std::max(hi, it->second.value);
  }
  if (cells.empty()) throw InputError(csv.file, 0, "--where", "no row matches the filters");
  if (!std::isfinite(lo)) lo = 0, hi = 1;  // every cell infeasible: the palette's range is moot
  if (o.facet.empty()) af.values.push_back("");
  int nf = static_cast<int>(af.values.size()), nx = static_cast<int>(ax.values.size()),
      ny = static_cast<int>(ay.values.size());
  if (hi <= lo) hi = lo + 1;

  int width = o.width > 0 ? o.width : std::max(900, 120 + nf * std::max(620, 110 * nx));
  Figure fig(o.out, width, o.height, o.force);
  Gnuplot& gp = fig.gp();
  gp << fmt::format("set multiplot layout 1,{} title {} font ',15'\n", nf,
                    q(o.title.empty() ? o.value + " (" + o.csv + ")" : o.title));
  gp << "set palette defined (0 '#440154', 0.25 '#3b528b', 0.5 '#21918c', 0.75 '#5ec962', "
        "1 '#fde725')\n";
  gp << fmt::format("set cbrange [{}:{}]\n", lo, hi);
  gp << "set cblabel " << q(o.value_label.empty() ? o.value : o.value_label) << "\n";
  gp << "set xlabel " << q(o.x_label.empty() ? o.x : o.x_label) << "\n";
  gp << "set ylabel " << q(o.y_label.empty() ? o.y : o.y_label) << "\n";
  gp << fmt::format("set xrange [-0.5:{}]\nset yrange [-0.5:{}]\n", nx - 0.5, ny - 0.5);
  gp << "set xtics (";
  for (int i = 0; i < nx; ++i) gp << (i ? ", " : "") << q(ax.values[i]) << " " << i;
  gp << ")\nset ytics (";
  for (int i = 0; i < ny; ++i) gp << (i ? ", " : "") << q(ay.values[i]) << " " << i;
  gp << ")\nset tics scale 0\nset style textbox opaque noborder\nunset key\n";

  for (int f = 0; f < nf; ++f) {
    gp << "unset label\n";
    gp << "set title " << q(o.facet.empty() ? std::string() : o.facet + " = " + af.values[f])
       << "\n";
    // Cells (x, y, value); framed OOM cells (x, y, half sizes); labels per cell.
    std::vector<std::tuple<double, double, double>> img;
    std::vector<std::tuple<double, double, double, double>> frames, grey;
    int tag = 1;
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        auto it = cells.find({f, x, y});
        Cell c = it == cells.end() ? Cell{} : it->second;
        if (c.infeasible) {
          grey.emplace_back(x, y, 0.5, 0.5);
          gp << fmt::format("set label {} {} at {},{} center front tc rgb '#000000' font ',12'\n",
                            tag++, q("infeasible\n(not simulated)"), x, y);
          continue;
        }
        img.emplace_back(x, y, c.value);
        std::string text = it == cells.end() ? "no data" : cell_text(c.value);
        if (c.oom > 0) {
          frames.emplace_back(x, y, 0.47, 0.47);
          text += fmt::format("\nOOM x{:g}", c.oom);
        }
        gp << fmt::format("set label {} {} at {},{} center front boxed tc rgb {} font ',12'\n",
                          tag++, q(text), x, y, c.oom > 0 ? "'#c00000'" : "'#000000'");
      }
    // Cells as palette-filled boxes (unlike `with image`, any grid size, even 1 x n, works).
    // Infeasible cells: grey boxes, outside the palette.
    if (img.empty()) img.emplace_back(-10, -10, lo);  // off-range: keeps the plot command valid
    gp << "plot '-' using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder lc palette";
    if (!frames.empty()) gp << ", '-' using 1:2:3:4 with boxxyerror fs empty lw 4 lc rgb '#e00000'";
    if (!grey.empty())
      gp << ", '-' using 1:2:3:4 with boxxyerror fs solid 1.0 noborder lc rgb '#bbbbbb'";
    gp << "\n";
    gp.send1d(img);
    if (!frames.empty()) gp.send1d(frames);
    if (!grey.empty()) gp.send1d(grey);
  }
  gp << "unset multiplot\n";
  fig.finish();
}

}  // namespace prestage::plot
