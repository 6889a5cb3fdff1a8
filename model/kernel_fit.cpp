#include "model/kernel_fit.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace prestage::model {

const char* to_string(KernelForm f) {
  return f == KernelForm::n_log2_n ? "a*n*log2(n)+b" : "a*n+b";
}

bool parse_kernel_form(const std::string& text, KernelForm& out) {
  for (KernelForm f : {KernelForm::n_log2_n, KernelForm::linear})
    if (text == to_string(f)) {
      out = f;
      return true;
    }
  return false;
}

double KernelModel::term(KernelForm form, double n) {
  return form == KernelForm::n_log2_n ? n * std::log2(n) : n;
}

namespace {

void residuals(KernelFit& f, const std::vector<double>& n, const std::vector<double>& t) {
  f.rel_residuals.clear();
  double ss = 0, mx = 0;
  for (std::size_t i = 0; i < n.size(); ++i) {
    const double r = (t[i] - f.model.at(n[i])) / t[i];
    f.rel_residuals.push_back(r);
    ss += r * r;
    mx = std::max(mx, std::abs(r));
  }
  f.rms_rel_residual = std::sqrt(ss / static_cast<double>(n.size()));
  f.max_rel_residual = mx;
}

}  // namespace

KernelFit fit_kernel(KernelForm form, const std::vector<double>& n, const std::vector<double>& t) {
  if (n.size() != t.size()) throw std::invalid_argument("fit_kernel: n and t differ in length");
  if (n.size() < 2) throw std::invalid_argument("fit_kernel: needs at least 2 points");
  for (std::size_t i = 0; i < n.size(); ++i) {
    if (!std::isfinite(n[i]) || n[i] < 2)
      throw std::invalid_argument("fit_kernel: sizes must be finite and >= 2");
    if (!std::isfinite(t[i]) || t[i] <= 0)
      throw std::invalid_argument("fit_kernel: times must be finite and > 0");
  }
  if (std::all_of(n.begin(), n.end(), [&](double v) { return v == n.front(); }))
    throw std::invalid_argument("fit_kernel: needs at least 2 distinct sizes");

  // Weighted system: row i is [term_i / t_i, 1 / t_i] . [a, b] = 1. The two columns differ by
  // ~n in scale (1e11 vs 1e3 at 2^27), so each is normalised before the QR and a, b rescaled.
  const Eigen::Index m = static_cast<Eigen::Index>(n.size());
  Eigen::MatrixXd A(m, 2);
  Eigen::VectorXd rhs = Eigen::VectorXd::Ones(m);
  for (Eigen::Index i = 0; i < m; ++i) {
    A(i, 0) = KernelModel::term(form, n[i]) / t[i];
    A(i, 1) = 1.0 / t[i];
  }
  const Eigen::Vector2d scale(A.col(0).norm(), A.col(1).norm());
  const Eigen::MatrixXd As = A * scale.cwiseInverse().asDiagonal();
  const Eigen::Vector2d xs = As.colPivHouseholderQr().solve(rhs);

  KernelFit f;
  f.model.form = form;
  f.model.a = xs(0) / scale(0);
  f.model.b = xs(1) / scale(1);
  if (f.model.b < 0) {  // a fixed overhead cannot be negative: refit through the origin
    const Eigen::VectorXd c = A.col(0);
    f.model.a = c.sum() / c.squaredNorm();
    f.model.b = 0;
    f.clamped = true;
  }
  if (!(f.model.a > 0) || !std::isfinite(f.model.a))
    throw std::invalid_argument("fit_kernel: the fitted slope is not positive");
  residuals(f, n, t);
  return f;
}

}  // namespace prestage::model
