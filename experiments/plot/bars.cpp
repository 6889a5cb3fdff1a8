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
  std::vector<double> v;
  std::vector<std::size_t> oom;
  for (const auto& [label, dir] : o.runs) {
    v.push_back(summary_number(dir, o.value));
    oom.push_back(summary_oom_count(dir));
  }
  double top = *std::max_element(v.begin(), v.end());
  if (top <= 0) top = 1;

  Figure fig(o.out, o.width, o.height, o.force);
  Gnuplot& gp = fig.gp();
  gp << "set title " << q(o.title.empty() ? o.value : o.title) << "\n";
  gp << "set ylabel " << q(o.y_label) << "\n";
  gp << fmt::format("set yrange [0:{}]\nset xrange [-0.6:{}]\n", top * 1.22, v.size() - 0.4);
  gp << "set style fill solid 0.8 border -1\nset boxwidth 0.6\nset grid ytics\nunset key\n";
  gp << "set xtics (";
  for (std::size_t i = 0; i < v.size(); ++i)
    gp << (i ? ", " : "") << q(o.runs[i].first) << " " << i;
  gp << ") font ',12'\n";
  for (std::size_t i = 0; i < v.size(); ++i) {
    std::string text = fmt::format("{:.4g}", v[i]);
    if (i > 0 && v[0] != 0) text += fmt::format("\n{:+.1f}% vs first", 100.0 * (v[i] / v[0] - 1));
    if (oom[i] > 0) text += fmt::format("\nOOM x{}", oom[i]);
    // A multi-line label is centred on its anchor: lift it by half its height above the bar.
    double lines = 1 + static_cast<double>(std::count(text.begin(), text.end(), '\n'));
    gp << fmt::format("set label {} {} at {},{} center front offset 0,{} tc rgb {} font ',12'\n",
                      i + 1, q(text), i, v[i], 0.55 * lines + 0.9,
                      oom[i] > 0 ? "'#c00000'" : "'#000000'");
  }
  std::vector<std::tuple<double, double, int>> pts;  // x, value, colour index (1 = had OOM)
  for (std::size_t i = 0; i < v.size(); ++i) pts.emplace_back(i, v[i], oom[i] > 0 ? 1 : 0);
  gp << "plot '-' using 1:2:($3 > 0 ? 0xe07070 : 0x4c78a8) with boxes lc rgb variable\n";
  gp.send1d(pts);
  fig.finish();
}

}  // namespace prestage::plot
