// prestage-plot bars: one summary.json number across labelled runs (see plots.hpp).
#include <fmt/format.h>

#include <gnuplot-iostream.h>
#include <algorithm>
#include <tuple>

#include "experiments/plot/figure.hpp"
#include "experiments/plot/inputs.hpp"
#include "experiments/plot/plots.hpp"
#include "model/errors.hpp"

namespace prestage::plot {

void bars(const BarsOptions& o) {
  if (o.runs.empty()) throw InputError("", 0, "--run", "give at least one LABEL=RUN_DIR");
  const std::vector<std::string> keys =
      o.values.empty() ? std::vector<std::string>{"throughput_proofs_per_hour"} : o.values;
  if (!o.series.empty() && o.series.size() != keys.size())
    throw InputError("", 0, "--series",
                     fmt::format("{} labels for {} --value keys", o.series.size(), keys.size()));
  const std::size_t k = keys.size();
  std::vector<std::vector<double>> v(k);  // [value][run]
  std::vector<std::size_t> oom;
  for (const auto& [label, dir] : o.runs) {
    for (std::size_t j = 0; j < k; ++j) v[j].push_back(summary_number(dir, keys[j]));
    oom.push_back(summary_oom_count(dir));
  }
  double top = 0;
  for (const auto& s : v) top = std::max(top, *std::max_element(s.begin(), s.end()));
  if (top <= 0) top = 1;
  const std::size_t n = o.runs.size();

  Figure fig(o.out, o.width, o.height, o.force);
  Gnuplot& gp = fig.gp();
  gp << "set title " << q(o.title.empty() ? keys.front() : o.title) << "\n";
  gp << "set ylabel " << q(o.y_label) << "\n";
  gp << fmt::format("set yrange [0:{}]\nset xrange [-0.6:{}]\n", top * 1.22, n - 0.4);
  const double width = 0.6 / static_cast<double>(k);
  gp << fmt::format("set style fill solid 0.8 border -1\nset boxwidth {}\nset grid ytics\n", width);
  if (k == 1)
    gp << "unset key\n";
  else
    gp << "set key top left font ',11'\n";
  gp << "set xtics (";
  for (std::size_t i = 0; i < n; ++i) gp << (i ? ", " : "") << q(o.runs[i].first) << " " << i;
  gp << ") font ',12'\n";
  auto x_of = [&](std::size_t i, std::size_t j) {
    return static_cast<double>(i) +
           (static_cast<double>(j) - 0.5 * static_cast<double>(k - 1)) * width;
  };
  int label = 1;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < k; ++j) {
      std::string text = fmt::format("{:.4g}", v[j][i]);
      // Relative labels only for one series (a group's bars are different quantities).
      if (k == 1 && i > 0 && v[0][0] != 0)
        text += fmt::format("\n{:+.1f}% vs first", 100.0 * (v[0][i] / v[0][0] - 1));
      if (oom[i] > 0 && j + 1 == k) text += fmt::format("\nOOM x{}", oom[i]);
      // A multi-line label is centred on its anchor: lift it by half its height above the bar.
      double lines = 1 + static_cast<double>(std::count(text.begin(), text.end(), '\n'));
      gp << fmt::format("set label {} {} at {},{} center front offset 0,{} tc rgb {} font ',{}'\n",
                        label++, q(text), x_of(i, j), v[j][i], 0.55 * lines + 0.9,
                        oom[i] > 0 ? "'#c00000'" : "'#000000'", k == 1 ? 12 : 10);
    }
  if (k == 1) {
    std::vector<std::tuple<double, double, int>> pts;  // x, value, 1 = had OOM
    for (std::size_t i = 0; i < n; ++i) pts.emplace_back(i, v[0][i], oom[i] > 0 ? 1 : 0);
    gp << "plot '-' using 1:2:($3 > 0 ? 0xe07070 : 0x4c78a8) with boxes lc rgb variable\n";
    gp.send1d(pts);
  } else {
    static const char* colours[] = {"#4c78a8", "#f58518", "#54a24b", "#b279a2", "#9d755d"};
    gp << "plot ";
    for (std::size_t j = 0; j < k; ++j)
      gp << (j ? ", " : "") << "'-' using 1:2 with boxes lc rgb " << q(colours[j % 5]) << " title "
         << q(o.series.empty() ? keys[j] : o.series[j]);
    gp << "\n";
    for (std::size_t j = 0; j < k; ++j) {
      std::vector<std::pair<double, double>> pts;
      for (std::size_t i = 0; i < n; ++i) pts.emplace_back(x_of(i, j), v[j][i]);
      gp.send1d(pts);
    }
  }
  fig.finish();
}

}  // namespace prestage::plot
