#pragma once
// Kernel cost models: a prover phase's time as a function of the domain size n, fitted to
// measured medians (data/calibration/SCHEMA.md, `kernels:`). Two forms:
//   n_log2_n: t(n) = a * n * log2(n) + b   (NTT-shaped: (n/2) log2 n butterflies)
//   linear:   t(n) = a * n + b             (MSM-shaped and pointwise: work per point)
// a in s per unit of the form's size term, b in s (launch/fixed overhead, never negative).
#include <string>
#include <vector>

namespace prestage::model {

enum class KernelForm { n_log2_n, linear };

// "a*n*log2(n)+b" / "a*n+b": the names the calibration file uses for the forms.
const char* to_string(KernelForm f);
// Inverse of to_string; false when `text` names no form.
bool parse_kernel_form(const std::string& text, KernelForm& out);

struct KernelModel {
  KernelForm form = KernelForm::linear;
  double a = 0;  // s per size term (n log2 n or n)
  double b = 0;  // s
  // The form's size term at n: n * log2(n) or n.
  static double term(KernelForm form, double n);
  double at(double n) const { return a * term(form, n) + b; }
};

// Result of fit_kernel: the model, how well it matches the points it was fitted to, and whether
// the intercept was clamped.
struct KernelFit {
  KernelModel model;
  std::vector<double> rel_residuals;  // per point: (t_i - model(n_i)) / t_i, unitless
  double rms_rel_residual = 0;        // sqrt(mean(rel_residuals^2))
  double max_rel_residual = 0;        // max |rel_residuals|
  bool clamped = false;  // the free intercept was negative; refitted with b = 0 (same weights)
};

// Least-squares fit of `form` to the points (n[i], t[i]) minimising the sum of squared RELATIVE
// residuals ((t_i - a*term(n_i) - b) / t_i)^2, so points spanning 2^20..2^27 weigh alike (b is
// set by the small sizes, a by the large ones). Solved with Eigen (column-scaled QR). Needs >= 2
// points with distinct n (>= 2), every t > 0 and finite; throws std::invalid_argument otherwise.
KernelFit fit_kernel(KernelForm form, const std::vector<double>& n, const std::vector<double>& t);

}  // namespace prestage::model
