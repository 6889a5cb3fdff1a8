#include "model/run_summary.hpp"

#include <nlohmann/json.hpp>

#include "model/scenario.hpp"

namespace prestage::model {

double partitions_per_hour(const Summary& m) {
  return m.makespan_s > 0 ? static_cast<double>(m.partitions_done) / m.makespan_s * 3600.0 : 0;
}

nlohmann::json to_json(const Summary& m) {
  using nlohmann::json;
  json j;
  j["scenario"] = m.scenario;
  j["policy"] = m.policy;
  j["seed"] = m.seed;
  j["proofs_requested"] = m.proofs_requested;
  j["proofs_completed"] = m.proofs_completed;
  j["makespan_s"] = m.makespan_s;
  j["throughput_proofs_per_hour"] = m.throughput_per_hour;
  j["throughput_partitions_per_hour"] = partitions_per_hour(m);
  json ph = json::object();
  for (const auto& [k, v] : m.phases)
    ph[k] = {{"total_s", v.total_s},
             {"count", v.count},
             {"mean_s", v.count ? v.total_s / static_cast<double>(v.count) : 0.0}};
  j["phases"] = ph;
  json gpus = json::array();
  for (std::size_t g = 0; g < m.gpu_busy_share.size(); ++g)
    gpus.push_back({{"gpu", g},
                    {"busy_share", m.gpu_busy_share[g]},
                    {"pcie_h2d_utilisation", m.h2d_utilisation[g]},
                    {"pcie_d2h_utilisation", m.d2h_utilisation[g]},
                    {"peak_device_memory_used_B", m.peak_used[g]},
                    {"peak_device_memory_reserved_B", m.peak_reserved[g]}});
  j["gpus"] = gpus;
  json oom = json::array();
  for (const auto& o : m.ooms)
    oom.push_back({{"t_s", o.t},
                   {"gpu", o.gpu},
                   {"worker", o.worker},
                   {"partition", o.partition},
                   {"where", o.where},
                   {"bytes", o.bytes},
                   {"meminfo_free_B", o.free}});
  j["oom_events"] = oom;
  j["partitions"] = {{"total", m.partitions_total},
                     {"done", m.partitions_done},
                     {"lost", m.partitions_lost},
                     {"retried", m.partitions_retried}};
  if (m.partitions_verified >= 0) {
    j["partitions"]["verified"] = m.partitions_verified;
    j["partitions"]["check_failed"] = m.partitions_check_failed;
  }
  json ws = json::array();
  for (const auto& w : m.workers)
    ws.push_back({{"gpu", w.gpu},
                  {"worker", w.worker},
                  {"device_wide_wait_s", w.device_wait_s},
                  {"lock_wait_s", w.lock_wait_s},
                  {"partitions_done", w.partitions_done}});
  j["workers"] = ws;
  j["engine_events"] = m.engine_events;
  j["workload"] = {{"log2_n", m.log2_n},
                   {"gpus", m.gpus},
                   {"workers_per_gpu", m.workers_per_gpu},
                   {"vram_B", m.vram},
                   {"resident_B", m.resident_bytes},
                   {"lot_of_memory", m.lot_of_memory},
                   {"buffer_bytes", m.buffer_bytes}};
  j["notes"] = m.notes;
  if (m.pinned_pool_bytes > 0)
    j["pinned_pool"] = {{"bytes_B", m.pinned_pool_bytes},
                        {"cudaMallocHost_s", m.pinned_pool_setup_s}};
  return j;
}

void fill_common(Summary& m, const Scenario& s, int proofs_done, double makespan_s,
                 const std::vector<PhaseStat>& step, const std::vector<PhaseStat>& wait,
                 const PhaseStat& synthesis) {
  m.scenario = s.name;
  m.policy = s.policy;
  m.seed = s.seed;
  m.proofs_requested = s.proofs;
  m.proofs_completed = proofs_done;
  m.makespan_s = makespan_s;
  m.throughput_per_hour = makespan_s > 0 ? proofs_done / makespan_s * 3600.0 : 0;
  for (std::size_t i = 0; i < s.pipe.steps.size(); ++i) {
    auto add = [&](const std::string& n, const PhaseStat& p) {
      if (!p.count) return;
      m.phases[n].total_s += p.total_s;
      m.phases[n].count += p.count;
    };
    add(s.pipe.steps[i].name, step[i]);
    add("wait_staged_" + s.pipe.steps[i].name, wait[i]);
  }
  if (synthesis.count) m.phases["synthesis"] = synthesis;
  m.vram = s.vram;
  m.resident_bytes = s.resident_bytes;
  m.gpus = s.gpus;
  m.workers_per_gpu = s.workers_per_gpu;
  m.log2_n = s.log2_n;
  m.lot_of_memory = s.lot_of_memory;
  for (std::size_t b = 0; b < s.pipe.buffers.size(); ++b)
    m.buffer_bytes[s.pipe.buffers[b].name] = s.buffer_bytes[b];
  m.notes = s.notes;
}

}  // namespace prestage::model
