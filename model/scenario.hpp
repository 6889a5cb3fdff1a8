#pragma once
// A scenario (schema prestage-scenario/1, files in data/scenarios/): GPUs and their VRAM, the
// calibration file, the pipeline (default: the embedded data/pipelines/supraseal_c2.yaml), the
// workload, workers per GPU, synthesis workers, the policy and its parameters, proofs and seed.
// Paths inside are relative to the scenario file. Loading validates everything (InputError with
// file, line and key) before anything runs, and binds the pipeline's size expressions and step
// durations to numbers.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/calibration.hpp"
#include "model/pipeline.hpp"
#include "model/policy/policy.hpp"

namespace YAML {
class Node;
}

namespace prestage::model {

// Where the proving key's MSM points live during the MSMs: streamed from pinned host memory in
// chunks (PCIe traffic beside pre-staging, as supraseal-c2 does) or resident on the device for
// the whole run (device memory taken from gpus.vram). Both drivers honour it. Streamed, an MSM
// kernel step (kernel msm_g1 or msm_g1_porep) takes its time from the calibration's
// `<kernel>_streamed` curve when the calibration has one (the probe's msm_streaming section), and
// moves its points over the link's H2D direction while it runs (step_stream_bytes), so that the
// simulator's pre-staging uploads share the link with it. Resident, the points' device memory is
// not modelled by the simulator yet.
enum class KeyPoints { streamed, resident };
// run.memory_samples: how the GPU runtime reads device memory for its memory samples (after each
// allocation, free, trim and sync) and out-of-memory records. driver: cudaMemGetInfo, a driver
// call that waits behind another thread's pinning call (calibration
// host_memory.pinning_delays_meminfo), so the measurement is part of the measured system, and
// the simulator models those reads; pool: the default pool's attributes and the runtime's own
// byte counts (free = free after setup - used - reserved), no driver call, none modelled. A
// policy's own free-memory read (MemoryView::free_bytes) is cudaMemGetInfo in both.
enum class MemorySamples { driver, pool };
// B a key point occupies, on the host and the device: ec::G1Affine (x, y of 48 B each and the
// infinity flag, padded to 104 B), the layout the GPU prover streams.
constexpr double kKeyPointBytes = 104;
// ... of a G2 key point (B_G2's MSM, kernels msm_g2 and msm_g2_porep): ec::G2Affine (x, y in Fq2,
// 96 B each, and the infinity flag, padded to 200 B).
constexpr double kG2KeyPointBytes = 200;

struct Scenario {
  std::string file, name;
  std::string calibration_file, pipeline_file;  // pipeline_file "<embedded>" for the default
  model::Calibration cal;
  model::Pipeline pipe;

  // workload
  int log2_n = 27;
  int partitions = 10;        // per proof
  double element_bytes = 32;  // B per field element
  int proofs = 10;
  KeyPoints key_points = KeyPoints::streamed;
  // GPUs
  int gpus = 1;
  double vram = 0;  // B per GPU
  int workers_per_gpu = 1;
  // host
  int synthesis_workers = 1;
  double synthesis_seconds = 0;  // s per partition
  int host_slots = 2;            // synthesized partitions that may wait in host memory
  int cpu_workers = 1;           // threads for detached CPU steps (B_G2 MSM)
  // policy
  std::string policy = "baseline";
  model::PolicyParams params;
  // run
  std::uint64_t seed = 1;
  int max_retries = 2;
  double jitter = 0;  // relative, uniform in [-jitter, +jitter] on kernel and synthesis times
  // s, run.worker_start_offset: worker k of each GPU starts (its stager and executor) k x this
  // later; negative: in reverse order (worker W-1-k starts k x |this| later). What `prestage
  // validate` shifts by 1 ms to find verdicts that depend on timing.
  double worker_start_offset = 0;
  MemorySamples memory_samples = MemorySamples::driver;
  double start_delay(int worker) const {
    const int k = worker_start_offset >= 0 ? worker : workers_per_gpu - 1 - worker;
    return k * (worker_start_offset >= 0 ? worker_start_offset : -worker_start_offset);
  }

  // Bound pipeline (from the sizes above).
  std::vector<double> input_bytes, buffer_bytes;  // B
  // B the prover holds on each GPU for the whole run, out of its usable memory: the pipeline's
  // `resident` entries, plus the key points when workload.key_points is resident (n x 104 B, and
  // n x 200 B of G2 points when a step runs an msm_g2* kernel).
  double resident_bytes = 0;
  std::vector<double> step_seconds;  // base duration of kernel/cpu steps (s); download: bytes
  // Per step: B of key points an MSM kernel step streams over H2D (key_points: streamed; the
  // step's size x kKeyPointBytes, or kG2KeyPointBytes for msm_g2*), 0 for every other step.
  std::vector<double> step_stream_bytes;
  // Per step: the pieces a kernel step's MSM runs in, with its key points resident, to fit its
  // pipeline's workspace (the largest pool buffer), tested against the calibration's
  // msm_workspace as the GPU runtime tests msm::device_workspace_bytes (model/msm_split.hpp):
  // 1 for every other step and where the calibration has no msm_workspace; > 1: the step's time
  // is pieces x one piece's; 0: no split fits, the step is an out-of-memory at `msm_workspace`
  // for step_msm_need B, as the runtime's.
  std::vector<int> step_msm_pieces;
  std::vector<double> step_msm_need;  // B: the largest piece's workspace (0: not tested)
  // Per step: the chunks a streamed-points MSM kernel step runs in, as the GPU runtime picks its
  // chunk (the largest power of two, n down to 1024 points, whose two point buffers and
  // least-memory workspace, calibration msm_workspace, fit the pipeline's largest pool buffer):
  // n / chunk, each a launch that waits for the driver and then runs on the device without
  // stalling. 1 for every other step and without msm_workspace (one paced piece of work); 0: no
  // chunk fits, the step is an out-of-memory at `msm_workspace` for the workspace's B
  // (step_msm_need), as the runtime's.
  std::vector<int> step_stream_chunks;
  std::vector<int> buffer_group;                      // stage group of each buffer, -1 if none
  std::uint64_t locked_sync_peak = 0, pool_peak = 0;  // B, unstaged peaks of one partition
  bool lot_of_memory = false;
  // Replay (sim/replay.hpp): event name ("msm_h", "upload_b", "stage_upload_a", "alloc_d_a",
  // "host_register", ...) -> factor on the model's time of that event, measured in recorded runs.
  // Not a scenario key: set by `prestage replay` and `validate --replay-from`. Empty: none.
  std::map<std::string, double> step_time_scale;
  // What a reader of the results should know about this scenario that the numbers do not say
  // (e.g. phase times that `phases:` fixes while workload.log2_n changes); summary.json `notes`.
  std::vector<std::string> notes;
};

// Parsed calibration and pipeline files, reused across the points of a sweep (not thread-safe).
struct LoadCache {
  std::map<std::string, model::Calibration> calibrations;
  std::map<std::string, model::Pipeline> pipelines;
};

using Overrides = std::vector<std::pair<std::string, std::string>>;

// The keys a scenario accepts (what the loader checks, and `--help` lists): per section ("" the
// top level, else a dotted key such as "policy.params") its keys, in order.
struct ScenarioSection {
  std::string name;
  std::vector<std::string> keys;
};
const std::vector<ScenarioSection>& scenario_sections();

// Loads a scenario file; `overrides` (dotted key -> YAML scalar text) are applied to the parsed
// document first (sweeps). InputError on any problem.
Scenario load_scenario(const std::string& path, const Overrides& overrides = {},
                       LoadCache* cache = nullptr);
// Same from a parsed document (cloned before overrides are applied).
Scenario build_scenario(const YAML::Node& doc, const std::string& path, const Overrides& overrides,
                        LoadCache* cache);

// The text of the embedded default pipeline (data/pipelines/supraseal_c2.yaml at build time).
const char* default_pipeline_text();

// The lock holder's state for MemoryView::lock_holder(), from where its partition is: `step` is
// the index of the pipeline step it runs now (or will run next), `held` its B held per buffer,
// `groups` the stage groups it pre-staged. Counts the alloc steps from `step` to the unlock.
model::LockHolder locked_remaining(const Scenario& s, std::size_t step,
                                   const std::vector<std::uint64_t>& held, int groups);

// Reads a dotted key ("policy.params.margin") of a YAML document; null node if absent.
YAML::Node lookup(const YAML::Node& root, const std::string& dotted);

}  // namespace prestage::model
