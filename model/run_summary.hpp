#pragma once
// The result of one run of a scenario, by either driver (the simulator, sim/runner.hpp, or the
// GPU staging runtime, gpu/staging/runtime.hpp): the summary that summary.json holds and the
// event trace (model/trace.hpp). Both drivers fill the same fields with the same meaning, so
// `prestage compare`, the plots and the experiments read either side's run directory.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/trace.hpp"

namespace prestage::model {

struct OomEvent {
  double t = 0;  // s
  int gpu = 0, worker = 0;
  std::int64_t partition = 0;
  std::string where;        // step or "stage_<group>"
  std::uint64_t bytes = 0;  // B requested
  std::uint64_t free = 0;   // B, cudaMemGetInfo free at the time
};

struct PhaseStat {
  double total_s = 0;  // summed over partitions (and attempts)
  std::int64_t count = 0;
};

struct WorkerStat {
  int gpu = 0, worker = 0;
  // s: wall time of the calls that wait for the whole device: cudaDeviceSynchronize, and cudaFree
  // / cudaHostUnregister where the calibration lists them as waiting, their own work included
  // (the GPU runtime can time only the whole call, so the simulator counts the same).
  double device_wait_s = 0;
  double lock_wait_s = 0;  // time waiting for the GPU lock
  std::int64_t partitions_done = 0;
};

struct Summary {
  std::string scenario, policy;
  std::uint64_t seed = 0;
  int proofs_requested = 0, proofs_completed = 0;
  double makespan_s = 0, throughput_per_hour = 0;
  std::map<std::string, PhaseStat> phases;
  std::vector<double> gpu_busy_share, h2d_utilisation, d2h_utilisation;  // per GPU, 0..1
  std::vector<std::uint64_t> peak_used, peak_reserved;                   // per GPU, B
  std::vector<OomEvent> ooms;
  std::int64_t partitions_total = 0, partitions_done = 0, partitions_lost = 0,
               partitions_retried = 0;
  // Real proofs (the GPU runtime with checked proofs): partitions whose proof passed / failed
  // the host's pairing check. -1: no proof was checked (the simulator; stand-in data).
  std::int64_t partitions_verified = -1, partitions_check_failed = 0;
  std::vector<WorkerStat> workers;
  std::uint64_t engine_events = 0;  // events the engine processed
  // The bound workload, for the record.
  double vram = 0;  // B per GPU
  // B the prover holds on each GPU for the run (Scenario::resident_bytes).
  double resident_bytes = 0;
  int gpus = 0, workers_per_gpu = 0;
  int log2_n = 0;
  bool lot_of_memory = false;
  std::map<std::string, double> buffer_bytes;  // B per device buffer
  std::vector<std::string> notes;  // the scenario's notes (Scenario::notes), for the reader
  // pinning: pinned_pool: the host slots are pinned host memory, allocated once with
  // cudaMallocHost before the run starts (not in the makespan, as an engine's pool is allocated
  // when it starts): the bytes (host.host_slots x the partition's inputs) and the time it took
  // (the GPU runtime: measured; the simulator: the calibration's malloc_host at those bytes).
  // summary.json's `pinned_pool`, absent when 0 bytes.
  double pinned_pool_bytes = 0;  // B
  double pinned_pool_setup_s = 0;
};

struct RunResult {
  Summary summary;
  model::Trace trace;  // empty unless recorded
};

nlohmann::json to_json(const Summary& s);

// Partitions completed per hour of the makespan (0 for an empty run): summary.json's
// throughput_partitions_per_hour, beside proofs/h, which is 0 for a run that completes partitions
// but loses one of every proof.
double partitions_per_hour(const Summary& s);

struct Scenario;
// The fields both drivers fill alike: the scenario's names and workload, proofs and makespan,
// and the per-step phases (summed by step name; `wait` as "wait_staged_<step>"; synthesis).
// `step` and `wait` hold one PhaseStat per pipeline step.
void fill_common(Summary& m, const Scenario& s, int proofs_done, double makespan_s,
                 const std::vector<PhaseStat>& step, const std::vector<PhaseStat>& wait,
                 const PhaseStat& synthesis);

}  // namespace prestage::model
