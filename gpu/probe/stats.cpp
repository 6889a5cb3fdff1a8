#include "gpu/probe/stats.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace prestage::probe {

double min_of(const std::vector<double>& s) {
  if (s.empty()) throw std::invalid_argument("min of no samples");
  return *std::min_element(s.begin(), s.end());
}

double max_of(const std::vector<double>& s) {
  if (s.empty()) throw std::invalid_argument("max of no samples");
  return *std::max_element(s.begin(), s.end());
}

AffineFit fit_affine(const std::vector<double>& x, const std::vector<double>& y, bool relative) {
  if (x.size() != y.size()) throw std::invalid_argument("fit_affine: x and y differ in length");
  if (x.size() < 2) throw std::invalid_argument("fit_affine: needs at least 2 points");
  if (std::all_of(x.begin(), x.end(), [&](double v) { return v == x[0]; }))
    throw std::invalid_argument("fit_affine: all x equal");
  const Eigen::Index n = static_cast<Eigen::Index>(x.size());
  Eigen::MatrixXd a(n, 2);
  Eigen::VectorXd b(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    double w = 1.0;
    if (relative) {
      if (!(y[i] > 0)) throw std::invalid_argument("fit_affine: relative fit needs y > 0");
      w = 1.0 / y[i];
    }
    a(i, 0) = w;
    a(i, 1) = w * x[i];
    b(i) = w * y[i];
  }
  const Eigen::Vector2d c = a.colPivHouseholderQr().solve(b);
  AffineFit f;
  f.fixed = c(0);
  f.slope = c(1);
  f.points = static_cast<int>(n);
  double ss = 0, mx = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double fit = f.fixed + f.slope * x[i];
    const double rel = y[i] != 0 ? (y[i] - fit) / y[i] : (y[i] - fit);
    ss += rel * rel;
    mx = std::max(mx, std::abs(rel));
  }
  f.rms_rel_residual = std::sqrt(ss / static_cast<double>(n));
  f.max_rel_residual = mx;
  return f;
}

CostFit fit_cost(const std::vector<double>& x, const std::vector<double>& y, bool relative) {
  CostFit f;
  static_cast<AffineFit&>(f) = fit_affine(x, y, relative);
  if (f.fixed >= 0) return f;
  // Through the origin: minimise sum (w (y - s x))^2 -> s = sum(w^2 x y) / sum(w^2 x^2).
  double num = 0, den = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double w = relative ? 1.0 / y[i] : 1.0;
    num += w * w * x[i] * y[i];
    den += w * w * x[i] * x[i];
  }
  if (!(den > 0)) throw std::invalid_argument("fit_cost: all x are 0");
  f.fixed = 0;
  f.slope = num / den;
  f.clamped = true;
  double ss = 0, mx = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double rel = y[i] != 0 ? (y[i] - f.slope * x[i]) / y[i] : (y[i] - f.slope * x[i]);
    ss += rel * rel;
    mx = std::max(mx, std::abs(rel));
  }
  f.rms_rel_residual = std::sqrt(ss / static_cast<double>(x.size()));
  f.max_rel_residual = mx;
  return f;
}

PairVerdict classify_pair(const PairTiming& t) {
  const double start = std::min(t.a_start, t.b_start);
  const double first = std::min(t.a_end, t.b_end), last = std::max(t.a_end, t.b_end);
  PairVerdict v;
  v.first_end_ratio = last > start ? (first - start) / (last - start) : 1.0;
  v.a_finished_first = t.a_end <= t.b_end;
  v.verdict = v.first_end_ratio >= 0.85  ? "shared"
              : v.first_end_ratio <= 0.6 ? "queued"
                                         : "partial";
  return v;
}

std::uint64_t gcd_bytes(const std::vector<std::uint64_t>& v) {
  std::uint64_t g = 0;
  for (std::uint64_t x : v) g = std::gcd(g, x);
  return g;
}

}  // namespace prestage::probe
