#include "sim/sweep.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <ostream>
#include <thread>

#include "model/errors.hpp"
#include "model/yaml_input.hpp"

namespace prestage::sim {

Vary parse_vary(const std::string& spec) {
  auto eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 >= spec.size())
    throw InputError("--vary", 0, spec, "expected key=v1,v2,...");
  Vary v;
  v.key = spec.substr(0, eq);
  std::string rest = spec.substr(eq + 1), cur;
  for (char c : rest) {
    if (c == ',') {
      v.values.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  v.values.push_back(cur);
  for (const auto& x : v.values)
    if (x.empty()) throw InputError("--vary", 0, v.key, "empty value in '" + spec + "'");
  return v;
}

std::pair<std::string, std::string> parse_set(const std::string& spec) {
  auto eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 >= spec.size())
    throw InputError("--set", 0, spec, "expected key=value");
  return {spec.substr(0, eq), spec.substr(eq + 1)};
}

Scenario load_with_overrides(const std::string& path, const Overrides& overrides,
                             const std::string& option) {
  try {
    return load_scenario(path, overrides);
  } catch (const InputError& e) {
    for (const auto& [key, val] : overrides)
      if (e.key().rfind(key, 0) == 0)
        throw InputError(option, 0, key, "value '" + val + "': " + e.what());
    throw;
  }
}

std::vector<SweepPoint> run_sweep(const std::string& path, const std::vector<Vary>& vary,
                                  int threads,
                                  const std::function<void(std::size_t, std::size_t)>& progress) {
  YAML::Node doc = yaml::load_file(path);
  LoadCache cache;
  std::size_t total = 1;
  for (const auto& v : vary) total *= v.values.size();
  std::vector<SweepPoint> points(total);
  std::vector<std::optional<Scenario>> scenarios(total);
  std::size_t feasible = 0;
  for (std::size_t i = 0; i < total; ++i) {
    std::size_t k = i;
    // Last key varies fastest.
    Overrides ov(vary.size());
    for (std::size_t j = vary.size(); j-- > 0;) {
      ov[j] = {vary[j].key, vary[j].values[k % vary[j].values.size()]};
      k /= vary[j].values.size();
    }
    try {
      scenarios[i].emplace(build_scenario(doc, path, ov, &cache));
      ++feasible;
    } catch (const InfeasibleError& e) {
      points[i].infeasible = e.what();
    } catch (const InputError& e) {
      for (const auto& [key, val] : ov)
        if (e.key().rfind(key, 0) == 0)
          throw InputError("--vary", 0, key, "value '" + val + "': " + e.what());
      throw;
    }
    points[i].overrides = std::move(ov);
  }
  if (feasible == 0)
    throw InputError("--vary", 0, "", "every point is infeasible, e.g. " + points[0].infeasible);
  std::atomic<std::size_t> next{0};
  std::size_t done = 0;
  std::mutex mu;
  std::exception_ptr error;
  auto work = [&] {
    for (;;) {
      std::size_t i = next.fetch_add(1);
      if (i >= total) return;
      try {
        if (scenarios[i]) points[i].summary = run_scenario(*scenarios[i], false).summary;
      } catch (...) {
        std::lock_guard<std::mutex> g(mu);
        if (!error) error = std::current_exception();
        return;
      }
      std::lock_guard<std::mutex> g(mu);
      ++done;
      if (progress) progress(done, total);
    }
  };
  int n = std::max(1, std::min<int>(threads, static_cast<int>(total)));
  std::vector<std::thread> pool;
  for (int t = 1; t < n; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
  return points;
}

static std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

void write_sweep_csv(std::ostream& out, const std::vector<Vary>& vary,
                     const std::vector<SweepPoint>& points) {
  // The summary's columns, in the order each row writes them.
  const std::string summary_columns =
      "proofs_completed,makespan_s,throughput_proofs_per_hour,oom_events,partitions_lost,"
      "partitions_retried,gpu_busy_share,pcie_h2d_utilisation,peak_used_B,peak_reserved_B,"
      "device_wide_wait_s,first_oom_where,partitions_done,throughput_partitions_per_hour";
  const auto n_summary =
      static_cast<std::size_t>(std::count(summary_columns.begin(), summary_columns.end(), ',')) + 1;
  for (const auto& v : vary) out << csv_field(v.key) << ",";
  out << summary_columns << ",infeasible\n";
  for (const auto& p : points) {
    for (const auto& [k, v] : p.overrides) out << csv_field(v) << ",";
    if (!p.infeasible.empty()) {  // empty summary cells, never zeros
      out << std::string(n_summary, ',') << csv_field(p.infeasible) << "\n";
      continue;
    }
    const Summary& m = p.summary;
    double busy = 0, h2d = 0, wait = 0;
    std::uint64_t used = 0, reserved = 0;
    for (std::size_t g = 0; g < m.gpu_busy_share.size(); ++g) {
      busy += m.gpu_busy_share[g] / static_cast<double>(m.gpu_busy_share.size());
      h2d += m.h2d_utilisation[g] / static_cast<double>(m.gpu_busy_share.size());
      used = std::max(used, m.peak_used[g]);
      reserved = std::max(reserved, m.peak_reserved[g]);
    }
    for (const auto& w : m.workers) wait += w.device_wait_s;
    out << m.proofs_completed << "," << fmt::format("{}", m.makespan_s) << ","
        << fmt::format("{}", m.throughput_per_hour) << "," << m.ooms.size() << ","
        << m.partitions_lost << "," << m.partitions_retried << "," << fmt::format("{}", busy) << ","
        << fmt::format("{}", h2d) << "," << used << "," << reserved << ","
        << fmt::format("{}", wait) << "," << csv_field(m.ooms.empty() ? "" : m.ooms.front().where)
        << "," << m.partitions_done << "," << fmt::format("{}", model::partitions_per_hour(m))
        << ",\n";
  }
}

}  // namespace prestage::sim
