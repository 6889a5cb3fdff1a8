#include "gpu/probe/kernel_curves.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>

#include "gpu/probe/stats.hpp"
#include "model/errors.hpp"
#include "model/kernel_fit.hpp"

namespace prestage::probe {
namespace {

using Json = nlohmann::ordered_json;
using model::KernelFit;
using model::KernelForm;
using model::KernelModel;

// One validated benchmark row.
struct Row {
  std::size_t index = 0;  // position in `rows`
  std::string name;       // e.g. "fr_ntt_forward"
  int log_n = 0;
  double median_s = 0;  // s
  std::size_t runs = 0;
  int window_bits = -1;  // MSM window c, -1 when the row has none
  // Repetition of an interleaved A/B comparison (gpu_bench's "round": the same name and size
  // measured several times in one process, e.g. token mirror_ab); -1 for a plain row. Curves
  // read plain rows only.
  int round = -1;
};

// One curve of the calibration and the benchmark row name it is measured by.
struct Spec {
  const char* curve;
  const char* row;
  KernelForm form;
  const char* base;  // curve whose fit gives the shape when only one size is measured ("" none)
  const char* what;
  // Rows read instead of `row` when the benchmark has them (msm_g2: in benchmarks that have
  // g2_msm_xyzz, g2_msm is the Auto default, batch-affine at 2^20-2^23, and g2_msm_xyzz the XYZZ
  // path the pipeline's 2^27 B_G2 MSM runs; earlier benchmarks' g2_msm rows are XYZZ).
  const char* preferred_row = "";
};
// Curve names are those pipelines use (data/pipelines/supraseal_c2.yaml: h_input, coset_intt,
// msm_g1, msm_g1_porep); the separate transforms, the two H computations as wholes and the G2 MSM
// are recorded for scenarios that model them. Where the prover runs a transform with a scratch
// buffer (the textbook H's final coset iNTT uses d_b, gpu/groth16/gpu_h.cu), the curve comes from
// the `_scratch` row.
const Spec kSpecs[] = {
    {"ntt", "fr_ntt_forward", KernelForm::n_log2_n, "", "Fr NTT forward, natural order"},
    {"intt", "fr_ntt_inverse", KernelForm::n_log2_n, "ntt", "Fr NTT inverse"},
    {"coset_ntt", "fr_ntt_coset_forward", KernelForm::n_log2_n, "ntt", "Fr coset NTT forward"},
    {"coset_intt", "fr_ntt_coset_inverse_scratch", KernelForm::n_log2_n, "ntt",
     "Fr coset NTT inverse with an n x 32 B scratch buffer (the textbook H's last step)"},
    {"h_input", "groth16_h_input", KernelForm::n_log2_n, "ntt",
     "Groth16 H, one input's chain: iNTT + coset NTT fused (ntt::interpolate_to_coset)"},
    {"h_circom", "groth16_h_circom", KernelForm::n_log2_n, "ntt",
     "Groth16 H, circom reduction: 3 fused iNTT + coset NTT chains, a*b-c in C's last pass"},
    {"h_textbook", "groth16_h_textbook", KernelForm::n_log2_n, "ntt",
     "Groth16 H, textbook reduction: the circom chains with (a*b-c)/Z, then a coset iNTT"},
    // The pipeline's G1 MSMs run on its msm_scratch, measured for the XYZZ path (5.06 GiB at
    // 2^27, data/pipelines/supraseal_c2.yaml); in newer benchmarks the g1_msm rows are the Auto
    // default, batch-affine at 2^17-2^27 with a 22.4 GiB workspace at 2^27, and the XYZZ path
    // is g1_msm_xyzz (the porep row likewise from 97b7ebc on): the curves take the XYZZ rows so
    // that time and memory describe one configuration.
    {"msm_g1", "g1_msm", KernelForm::linear, "",
     "G1 MSM (XYZZ accumulation), uniform random scalars", "g1_msm_xyzz"},
    {"msm_g1_porep", "g1_msm_porep_shaped", KernelForm::linear, "",
     "G1 MSM (XYZZ accumulation), PoRep-shaped scalars (50% 0, 45% 1, 5% uniform)",
     "g1_msm_porep_shaped_xyzz"},
    {"msm_g2", "g2_msm", KernelForm::linear, "",
     "G2 MSM (XYZZ accumulation), uniform random scalars", "g2_msm_xyzz"},
    // B_G2 on the GPU (kernel msm_g2_porep): the real B vector's scalars are PoRep-shaped, as
    // B_G1's; measured with XYZZ, the path the pipeline's workspace gives it at 2^27.
    {"msm_g2_porep", "g2_msm_porep_shaped", KernelForm::linear, "msm_g2",
     "G2 MSM (XYZZ accumulation), PoRep-shaped scalars (50% 0, 45% 1, 5% uniform)",
     "g2_msm_porep_shaped_xyzz"},
};

class Bench {
 public:
  explicit Bench(const BenchInputs& in) : in_(in) {
    const Json& b = in.bench;
    if (!b.is_object()) fail("", "expected a JSON object (gpu_bench output)");
    const Json& m = member(b, "manifest", "manifest");
    commit_ = str(m, "commit", "manifest.commit");
    date_ = str(m, "date", "manifest.date");
    gpu_ = str(m, "gpu", "manifest.gpu");
    const Json& q = member(m, "quick", "manifest.quick");
    if (!q.is_boolean()) fail("manifest.quick", "expected true/false");
    if (q.get<bool>()) fail("manifest.quick", "a --quick run's sizes are no calibration");
    const Json& rows = member(b, "rows", "rows");
    if (!rows.is_array() || rows.empty()) fail("rows", "expected a non-empty list");
    for (std::size_t i = 0; i < rows.size(); ++i) add_row(rows[i], i);
  }

  // Rows of one benchmark name, ascending in size.
  std::vector<Row> rows(const std::string& name) const {
    std::vector<Row> out;
    for (const Row& r : rows_)
      if (r.name == name && r.round < 0) out.push_back(r);
    std::sort(out.begin(), out.end(), [](const Row& a, const Row& b) { return a.log_n < b.log_n; });
    return out;
  }
  std::optional<Row> row(const std::string& name, int log_n) const {
    for (const Row& r : rows_)
      if (r.name == name && r.log_n == log_n && r.round < 0) return r;
    return std::nullopt;
  }

  std::string point_source(const Row& r) const {
    return fmt::format(
        "gpu_bench {} 2^{}: median of {} runs (CUDA events, data on the device, random "
        "inputs){}; rows[{}], commit {}, {}, {}; raw: {}",
        r.name, r.log_n, r.runs,
        r.window_bits >= 0 ? fmt::format(", window c={}", r.window_bits) : "", r.index, commit_,
        date_, gpu_, in_.ref);
  }
  const std::string& ref() const { return in_.ref; }
  const std::string& commit() const { return commit_; }
  const std::string& file() const { return in_.file; }

 private:
  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw InputError(in_.file, 0, key, what);
  }
  const Json& member(const Json& j, const char* key, const std::string& path) const {
    if (!j.is_object() || !j.contains(key)) fail(path, "missing in the benchmark results");
    return j.at(key);
  }
  std::string str(const Json& j, const char* key, const std::string& path) const {
    const Json& v = member(j, key, path);
    if (!v.is_string() || v.get<std::string>().empty()) fail(path, "expected a non-empty string");
    return v.get<std::string>();
  }
  void add_row(const Json& j, std::size_t i) {
    const std::string at = fmt::format("rows[{}]", i);
    if (!j.is_object()) fail(at, "expected an object");
    Row r;
    r.index = i;
    r.name = str(j, "name", at + ".name");
    // A row the card could not run (gpu_bench writes why, e.g. "device memory", and no times):
    // no measurement, so no point of any curve.
    if (j.contains("skipped")) {
      if (!j["skipped"].is_string() || j["skipped"].get<std::string>().empty())
        fail(at + ".skipped", "expected a non-empty string (why the row was not run)");
      return;
    }
    const Json& ln = member(j, "log_n", at + ".log_n");
    if (!ln.is_number_integer() || ln.get<std::int64_t>() < 1 || ln.get<std::int64_t>() > 40)
      fail(at + ".log_n", "expected an integer 1..40");
    r.log_n = ln.get<int>();
    const Json& n = member(j, "n", at + ".n");
    if (!n.is_number_integer() || n.get<std::int64_t>() != (std::int64_t{1} << r.log_n))
      fail(at + ".n", fmt::format("expected 2^log_n = {}", std::uint64_t{1} << r.log_n));
    const Json& med = member(j, "median_ms", at + ".median_ms");
    if (!med.is_number() || !std::isfinite(med.get<double>()) || med.get<double>() <= 0)
      fail(at + ".median_ms", "expected a positive number (ms)");
    const Json& runs = member(j, "runs_ms", at + ".runs_ms");
    if (!runs.is_array() || runs.empty()) fail(at + ".runs_ms", "expected a non-empty list (ms)");
    std::vector<double> v;
    for (std::size_t k = 0; k < runs.size(); ++k) {
      if (!runs[k].is_number() || !(runs[k].get<double>() > 0))
        fail(fmt::format("{}.runs_ms[{}]", at, k), "expected a positive number (ms)");
      v.push_back(runs[k].get<double>());
    }
    // The calibration states that its value is the median of the runs: check it is.
    const double m = median(v);
    if (std::abs(m - med.get<double>()) > 1e-9 * m)
      fail(at + ".median_ms",
           fmt::format("{} ms is not the median of runs_ms ({} ms)", med.get<double>(), m));
    r.median_s = med.get<double>() * 1e-3;
    r.runs = v.size();
    if (j.contains("window_bits")) {
      if (!j["window_bits"].is_number_integer() || j["window_bits"].get<std::int64_t>() < 0)
        fail(at + ".window_bits", "expected an integer");
      r.window_bits = j["window_bits"].get<int>();
    }
    if (j.contains("round")) {
      if (!j["round"].is_number_integer() || j["round"].get<std::int64_t>() < 0)
        fail(at + ".round", "expected a non-negative integer");
      r.round = j["round"].get<int>();
    }
    for (const Row& o : rows_)
      if (o.name == r.name && o.log_n == r.log_n && o.round == r.round)
        fail(at, r.round < 0
                     ? fmt::format("duplicate row {} 2^{}", r.name, r.log_n)
                     : fmt::format("duplicate row {} 2^{} round {}", r.name, r.log_n, r.round));
    rows_.push_back(r);
  }

  const BenchInputs& in_;
  std::string commit_, date_, gpu_;
  std::vector<Row> rows_;
};

// One curve ready to emit.
struct Curve {
  std::vector<std::pair<int, double>> pts;  // (log2 n, s)
  std::vector<std::string> sources;         // per point
  KernelFit fit;
  std::string fit_source;
};

std::string sizes(const std::vector<std::pair<int, double>>& pts) {
  std::string s;
  for (std::size_t i = 0; i < pts.size(); ++i)
    s += fmt::format("{}2^{}", i ? ", " : "", pts[i].first);
  return s;
}

// Relative residuals of a model at the curve's points.
void residuals_of(Curve& c) {
  c.fit.rel_residuals.clear();
  double ss = 0, mx = 0;
  for (const auto& [l, t] : c.pts) {
    const double r = (t - c.fit.model.at(std::exp2(l))) / t;
    c.fit.rel_residuals.push_back(r);
    ss += r * r;
    mx = std::max(mx, std::abs(r));
  }
  c.fit.rms_rel_residual = std::sqrt(ss / static_cast<double>(c.pts.size()));
  c.fit.max_rel_residual = mx;
}

// Fits c (points already set): >= 2 sizes by least squares; one size by the base curve's shape
// scaled to it, or proportional to n without a base.
void fit_curve(Curve& c, KernelForm form, const std::string& row_desc, const Curve* base,
               const char* base_name) {
  std::vector<double> n, t;
  for (const auto& [l, v] : c.pts) {
    n.push_back(std::exp2(l));
    t.push_back(v);
  }
  if (c.pts.size() >= 2) {
    try {
      c.fit = model::fit_kernel(form, n, t);
      c.fit_source = fmt::format(
          "least squares in relative error over the medians at {} ({}){}; gives the time at "
          "sizes not measured",
          sizes(c.pts), row_desc,
          c.fit.clamped ? ", b clamped to 0 (the free intercept was negative)" : "");
      return;
    } catch (const std::invalid_argument&) {
      // The medians fall with size (the streamed G2 MSM at 2^26 runs in smaller chunks than at
      // 2^27 and took longer): no fit with a positive slope. The points stay the times at their
      // sizes; the fit, for other sizes only, goes through the largest size's point.
      const auto& [l, v] = *std::max_element(c.pts.begin(), c.pts.end());
      c.fit = KernelFit{};
      c.fit.model.form = form;
      c.fit.model.a = v / KernelModel::term(form, std::exp2(l));
      c.fit.model.b = 0;
      c.fit_source = fmt::format(
          "the medians at {} ({}) do not grow with size, so no least-squares fit has a positive "
          "slope; proportional to the size term through the 2^{} point, for sizes not measured",
          sizes(c.pts), row_desc, l);
      residuals_of(c);
      return;
    }
  }
  const double l = c.pts.front().first, v = c.pts.front().second;
  if (base != nullptr) {
    const double k = v / base->fit.model.at(std::exp2(l));
    c.fit.model = base->fit.model;
    c.fit.model.a *= k;
    c.fit.model.b *= k;
    c.fit_source = fmt::format(
        "estimate: one size only, 2^{} ({}); the {} fit scaled by {:.6g}, the ratio of this "
        "median to that fit at 2^{}",
        static_cast<int>(l), row_desc, base_name, k, static_cast<int>(l));
  } else {
    c.fit.model.form = form;
    c.fit.model.a = v / KernelModel::term(form, std::exp2(l));
    c.fit.model.b = 0;
    c.fit_source = fmt::format(
        "estimate: one size only, 2^{} ({}); proportional to the size term through that point",
        static_cast<int>(l), row_desc);
  }
  residuals_of(c);
}

// Rounding noise of an exact fit (|r| ~ 1e-16) is written as 0, so the file does not depend on it.
double snap(double r) {
  return std::abs(r) < 1e-12 ? 0.0 : r;
}

void emit_curve(YAML::Emitter& e, const std::string& name, const Curve& c,
                const std::vector<int>& extrapolate) {
  e << YAML::Key << name << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "points" << YAML::Value << YAML::BeginSeq;
  for (std::size_t i = 0; i < c.pts.size(); ++i) {
    e << YAML::Flow << YAML::BeginMap;
    e << YAML::Key << "log2_n" << YAML::Value << c.pts[i].first;
    e << YAML::Key << "value" << YAML::Value << c.pts[i].second;
    e << YAML::Key << "unit" << YAML::Value << "s";
    e << YAML::Key << "source" << YAML::Value << c.sources[i];
    e << YAML::EndMap;
  }
  e << YAML::EndSeq;
  const KernelModel& m = c.fit.model;
  e << YAML::Key << "fit" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "model" << YAML::Value << model::to_string(m.form);
  e << YAML::Key << "a" << YAML::Value << m.a;
  e << YAML::Key << "b" << YAML::Value << m.b;
  e << YAML::Key << "unit" << YAML::Value << "s";
  e << YAML::Key << "residuals" << YAML::Value << YAML::Flow << YAML::BeginSeq;
  for (std::size_t i = 0; i < c.pts.size(); ++i)
    e << YAML::Flow << YAML::BeginMap << YAML::Key << "log2_n" << YAML::Value << c.pts[i].first
      << YAML::Key << "rel" << YAML::Value << snap(c.fit.rel_residuals[i]) << YAML::EndMap;
  e << YAML::EndSeq;
  e << YAML::Key << "rms_rel_residual" << YAML::Value << snap(c.fit.rms_rel_residual);
  e << YAML::Key << "max_rel_residual" << YAML::Value << snap(c.fit.max_rel_residual);
  e << YAML::Key << "source" << YAML::Value << c.fit_source;
  e << YAML::EndMap;
  std::vector<int> extra;
  for (int l : extrapolate)
    if (std::none_of(c.pts.begin(), c.pts.end(), [&](const auto& p) { return p.first == l; }))
      extra.push_back(l);
  std::sort(extra.begin(), extra.end());
  extra.erase(std::unique(extra.begin(), extra.end()), extra.end());
  if (!extra.empty()) {
    e << YAML::Key << "extrapolated" << YAML::Value << YAML::BeginSeq;
    for (int l : extra) {
      const bool inside = l > c.pts.front().first && l < c.pts.back().first;
      e << YAML::Flow << YAML::BeginMap;
      e << YAML::Key << "log2_n" << YAML::Value << l;
      e << YAML::Key << "value" << YAML::Value << m.at(std::exp2(l));
      e << YAML::Key << "unit" << YAML::Value << "s";
      e << YAML::Key << "source" << YAML::Value
        << fmt::format(
               "estimate: {} by fit {} (a = {:.6g} s, b = {:.6g} s) from the points at "
               "{}; not measured at 2^{}",
               inside ? "interpolated" : "extrapolated", model::to_string(m.form), m.a, m.b,
               sizes(c.pts), l);
      e << YAML::EndMap;
    }
    e << YAML::EndSeq;
  }
  e << YAML::EndMap;
}

// A value derived from other rows must be a time: <= 0 (or not finite) means the rows do not
// measure what the derivation assumes, so the calibration is not written.
double positive_derived(const Bench& bench, double v, const std::string& rows,
                        const std::string& what) {
  if (!(v > 0) || !std::isfinite(v))
    throw InputError(bench.file(), 0, rows,
                     fmt::format("derived {} = {:.6g} s is not positive; no curve can come from "
                                 "these rows",
                                 what, v));
  return v;
}

// h_input without a groth16_h_input row: the fused circom H (gpu/groth16/gpu_h.cu) is three
// identical ntt::interpolate_to_coset calls (iNTT + coset NTT in 5 passes), C's also doing the
// pointwise a*b-c in its last pass, so one input's chain is estimated as a third of the H row.
Curve derived_h_input(const Bench& bench) {
  Curve c;
  for (const Row& h : bench.rows("groth16_h_circom")) {
    const std::string at = fmt::format("rows[{}].median_ms", h.index);
    const double v = positive_derived(bench, h.median_s / 3, at, "groth16_h_circom / 3");
    c.pts.emplace_back(h.log_n, v);
    c.sources.push_back(fmt::format(
        "estimate: derived, not timed alone: groth16_h_circom / 3 at 2^{} (median of rows[{}]: "
        "{:.6g} s / 3; the fused circom H is three identical iNTT + coset NTT chains, C's also "
        "doing the a*b-c in its last pass, so this includes a third of that step), commit {}; "
        "raw: {}",
        h.log_n, h.index, h.median_s, bench.commit(), bench.ref()));
  }
  return c;
}

}  // namespace

std::set<std::string> emit_bench_kernels(YAML::Emitter& e, const BenchInputs& in) {
  const Bench bench(in);
  std::map<std::string, Curve> done;
  std::vector<std::string> order;
  for (const Spec& s : kSpecs) {
    const char* row_name = s.row;
    if (*s.preferred_row && !bench.rows(s.preferred_row).empty()) row_name = s.preferred_row;
    const std::vector<Row> rows = bench.rows(row_name);
    Curve c;
    std::string desc;
    if (!rows.empty()) {
      std::string idx;
      for (const Row& r : rows) {
        c.pts.emplace_back(r.log_n, r.median_s);
        c.sources.push_back(bench.point_source(r));
        idx += fmt::format("{}{}", idx.empty() ? "" : ", ", r.index);
      }
      desc = fmt::format("{}: gpu_bench {} rows[{}]", s.what, row_name, idx);
    } else if (std::string(s.curve) == "h_input") {
      c = derived_h_input(bench);
      if (c.pts.empty()) continue;
      desc = fmt::format("{}: derived as groth16_h_circom / 3 (no {} row)", s.what, s.row);
    } else {
      continue;
    }
    const auto base = done.find(s.base);
    fit_curve(c, s.form, desc, base == done.end() ? nullptr : &base->second, s.base);
    done[s.curve] = c;
    order.push_back(s.curve);
  }

  std::set<std::string> names;
  for (const std::string& name : order) {
    emit_curve(e, name, done.at(name), in.extrapolate_log2_n);
    names.insert(name);
  }
  return names;
}

void emit_measured_msm_curve(YAML::Emitter& e, const std::string& name,
                             const std::vector<std::pair<int, double>>& points,
                             const std::vector<std::string>& sources, const std::string& what,
                             const std::vector<int>& extrapolate_log2_n) {
  if (points.empty() || points.size() != sources.size())
    throw std::invalid_argument("emit_measured_msm_curve: points and sources differ");
  Curve c;
  c.pts = points;
  c.sources = sources;
  std::vector<std::size_t> order(points.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return points[a].first < points[b].first; });
  for (std::size_t i = 0; i < order.size(); ++i) {
    c.pts[i] = points[order[i]];
    c.sources[i] = sources[order[i]];
  }
  fit_curve(c, KernelForm::linear, what, nullptr, "");
  emit_curve(e, name, c, extrapolate_log2_n);
}

}  // namespace prestage::probe
