// gpu_bench's common parts: the options, the row registry, CUDA-event timing, the measured
// ceilings and the JSON row with its floor. Host C++ (g++ and nvcc); the kernels are in
// bench_common.cu. Row families live in rows_*.cu and register themselves here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <nlohmann/json.hpp>

#include "gpu/ff/fr.hpp"
#include "gpu/runtime/memory.hpp"
#include "model/stats.hpp"

namespace prestage::bench {

using json = nlohmann::json;
using prestage::model::median;

struct Options {
  std::string out_path = "gpu_bench.json";
  std::string commit = "unknown";
  unsigned max_log = 27;
  bool quick = false;
  bool forward_only = false;                       // NTT: forward rows only (tuning sweeps)
  std::vector<unsigned> ntt_logs{20, 24, 26, 27};  // NTT and groth16_h_input sizes
  std::string rows = ",ntt,h,msm,";                // selected tokens, comma-delimited both ends
};

// Measured in the process before any row: device-to-device bandwidth (bytes read + written per
// second) and the Fr / Fq Montgomery product rates (the faster of the two products measured).
struct Ceilings {
  double bandwidth_Bps = 0;
  double fr_mul_per_s = 0;
  double fq_mul_per_s = 0;
};

// What a row family runs with; rows go to `rows` in the order they are measured.
struct Context {
  const Options& opt;
  Ceilings cl;
  cudaStream_t stream;
  json& out;                      // the whole document (families may add top-level keys)
  json& rows;                     // out["rows"] while running
  int msm_result_mismatches = 0;  // MSM rows whose sum differed from the reference: exit 3
};

// A row family: `token` selects it in --rows (or `group`, when not empty: "msm" selects every
// family of that group); families run in ascending `order` whatever the --rows order.
struct RowFamily {
  std::string token;
  std::string group;
  std::string description;
  int order = 0;
  std::function<void(Context&)> run;
};

std::vector<RowFamily>& registry();
struct RegisterRows {
  RegisterRows(RowFamily f);  // NOLINT(google-explicit-constructor): arrays of them
};

// Runs `body` `warm` times untimed, then `reps` times between CUDA events on `stream` (ms).
std::vector<double> time_runs(cudaStream_t stream, int warm, int reps,
                              const std::function<void()>& body);

// n Fr values from a counter-based hash of (seed, index), raw Montgomery limbs below r. kind 0:
// uniform; kind 1: PoRep-shaped (50% zero, 45% one, 5% uniform).
void random_fr(ff::Fr* out, std::size_t n, std::uint64_t seed, int kind, cudaStream_t stream);

// Measures the ceilings and writes out["ceilings"] and out["mul_rates_ptx32"].
Ceilings measure_ceilings(gpu::DeviceAllocator& alloc, cudaStream_t stream, json& out);

// One timed row: the median of `ms`, its floor max(memory, compute) (seconds in, ms out) and how
// the floor was counted; printed as it is made.
json row(const std::string& name, std::size_t n, const std::vector<double>& ms, double mem_floor_s,
         double compute_floor_s, const std::string& how);

}  // namespace prestage::bench
