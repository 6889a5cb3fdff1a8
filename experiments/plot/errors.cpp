// prestage-plot errors: the model's makespan error per scenario of `prestage validate` reports
// (see plots.hpp).
#include <fmt/format.h>

#include <gnuplot-iostream.h>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <tuple>

#include "experiments/plot/figure.hpp"
#include "experiments/plot/inputs.hpp"
#include "experiments/plot/plots.hpp"
#include "model/errors.hpp"

namespace prestage::plot {

void errors(const ErrorsOptions& o) {
  namespace fs = std::filesystem;
  if (o.reports.empty()) throw InputError("", 0, "report", "give at least one report.json");
  if (!o.labels.empty() && o.labels.size() != o.reports.size())
    throw InputError("", 0, "--label",
                     fmt::format("{} labels for {} reports: give one per report or none",
                                 o.labels.size(), o.reports.size()));
  if (!(o.goal > 0 && o.goal < 1)) throw InputError("", 0, "--goal", "expected 0 < goal < 1");
  struct Row {
    std::string name;
    ErrorRow e;
  };
  std::vector<Row> rows;
  for (std::size_t k = 0; k < o.reports.size(); ++k) {
    std::string label =
        o.labels.empty()
            ? fs::absolute(o.reports[k]).lexically_normal().parent_path().filename().string()
            : o.labels[k];
    for (auto& e : read_validation_report(o.reports[k]))
      rows.push_back(
          {(label.empty() ? "" : label + ": ") + e.scenario + (e.held_back ? " (held back)" : ""),
           e});
  }
  const int n = static_cast<int>(rows.size());
  // Per row (top first): y, model error %, measured low and high % (relative to the median).
  double lo = -o.goal * 100 * 1.6, hi = o.goal * 100 * 1.6;
  std::vector<std::tuple<double, double, double, double>> range;  // 0, y, low, high
  std::vector<std::pair<double, double>> dev, held;               // error %, y
  for (int i = 0; i < n; ++i) {
    const ErrorRow& e = rows[i].e;
    double y = n - 1 - i;
    if (e.median != 0) {
      double a = (e.min / e.median - 1) * 100, b = (e.max / e.median - 1) * 100;
      range.emplace_back(0, y, a, b);
      lo = std::min(lo, a);
      hi = std::max(hi, b);
    }
    if (std::isfinite(e.rel_error)) {
      (e.held_back ? held : dev).emplace_back(e.rel_error * 100, y);
      lo = std::min(lo, e.rel_error * 100);
      hi = std::max(hi, e.rel_error * 100);
    }
  }
  const double pad = (hi - lo) * 0.08;
  lo -= pad;
  hi += 4 * pad;  // room for the value printed right of a point

  std::size_t longest = 0;
  for (const auto& r : rows) longest = std::max(longest, r.name.size());
  const int height = std::max(420, 230 + 34 * n);
  Figure fig(o.out, o.width, height, o.force);
  Gnuplot& gp = fig.gp();
  gp << "set title "
     << q(o.title.empty() ? "Model makespan error against the measured median, per scenario"
                          : o.title)
     << "\n";
  gp << "set xlabel " << q("makespan error: (model - measured median) / measured median (%)")
     << "\n";
  gp << fmt::format("set xrange [{}:{}]\nset yrange [-0.7:{}]\n", lo, hi, n - 0.3);
  gp << fmt::format("set lmargin at screen {}\nset rmargin 4\n",
                    std::min(0.5, (9.5 * static_cast<double>(longest) + 30) / o.width));
  gp << "set ytics (";
  for (int i = 0; i < n; ++i) gp << (i ? ", " : "") << q(rows[i].name) << " " << n - 1 - i;
  gp << ") font ',12'\n";
  gp << "set grid xtics\nset xtics format '%+g'\n";
  gp << fmt::format(
      "set object 1 rect from {0}, graph 0 to {1}, graph 1 fc rgb '#d9f0d3' fs solid 1.0 "
      "noborder behind\n",
      -o.goal * 100, o.goal * 100);
  gp << "set arrow 1 from 0, graph 0 to 0, graph 1 nohead lc rgb '#555555' lw 1\n";
  int label_id = 1;
  for (int i = 0; i < n; ++i) {
    const ErrorRow& e = rows[i].e;
    double y = n - 1 - i;
    std::string text =
        std::isfinite(e.rel_error)
            ? fmt::format("{:+.1f}%  ({:.2f} s vs {:.2f} s)", e.rel_error * 100, e.model, e.median)
            : "n/a (measured median 0)";
    double x = std::isfinite(e.rel_error) ? e.rel_error * 100 : 0;
    if (e.median != 0) x = std::max(x, (e.max / e.median - 1) * 100);  // right of the bar
    gp << fmt::format("set label {} {} at {}, {} left offset 1.2, 0 front font ',11'\n", label_id++,
                      q(text), x, y);
  }
  // The legend below the x label, two rows (gnuplot's own placement below overlaps the label).
  gp << fmt::format("set bmargin at screen {}\n", 150.0 / height);
  gp << fmt::format(
      "set key at screen 0.5, screen {} center bottom horizontal maxcols 2 Left reverse box "
      "font ',12'\n",
      8.0 / height);
  std::vector<std::string> parts;
  parts.push_back(fmt::format("NaN with boxes fs solid 1.0 lc rgb '#d9f0d3' title {}",
                              q(fmt::format("goal: within +-{:g}%", o.goal * 100))));
  parts.push_back(
      std::string(range.empty() ? "NaN" : "'-' using 1:2:3:4") +
      " with xerrorbars lc rgb '#555555' lw 2 pt 7 ps 0.5 title 'measured runs: range (bar) "
      "around the median (0)'");
  parts.push_back(std::string(dev.empty() ? "NaN" : "'-' using 1:2") +
                  " with points pt 7 ps 1.8 lc rgb '#1f77b4' title 'model (development)'");
  parts.push_back(std::string(held.empty() ? "NaN" : "'-' using 1:2") +
                  " with points pt 12 ps 2.2 lw 2.5 lc rgb '#d95f02' title 'model (held back)'");
  gp << "plot ";
  for (std::size_t p = 0; p < parts.size(); ++p) gp << (p ? ", " : "") << parts[p];
  gp << "\n";
  if (!range.empty()) gp.send1d(range);
  if (!dev.empty()) gp.send1d(dev);
  if (!held.empty()) gp.send1d(held);
  fig.finish();
}

}  // namespace prestage::plot
