#pragma once
// Staging policies: ONE small interface that the simulator drives now and the real prover will
// drive later. Pure C++: a policy sees a MemoryView of one GPU and the sizes it must place, and
// decides; it knows nothing of either side.
//
// Contract:
//  - One Policy instance per GPU, shared by that GPU's workers; calls are never concurrent.
//  - place() runs before a partition is pre-staged (outside the GPU lock). It returns how many of
//    the pipeline's stage groups to pre-stage, as a prefix in tier order (0 = nothing, 1 = d_a
//    only, 2 = d_a and d_bc for the default pipeline).
//  - place()/on_failure()/after_partition() must be deterministic functions of what the view
//    returns: a driver may re-run them after a blocking view call (the simulator suspends at
//    synchronize()/trim() and replays the call once the wait is over; calls already made return
//    at once on replay).
//  - released() is called when the staged buffers of a partition have been freed.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "model/calibration.hpp"

namespace prestage::yaml {
class In;
}

namespace prestage::model {

// What a policy may observe and do on one GPU (implemented by the simulator and by the prover).
class MemoryView {
 public:
  virtual ~MemoryView() = default;
  virtual std::uint64_t free_bytes() = 0;           // cudaMemGetInfo free, B
  virtual std::uint64_t total_bytes() = 0;          // cudaMemGetInfo total, B
  virtual std::uint64_t pool_reserved() = 0;        // default pool: reserved B
  virtual std::uint64_t pool_used() = 0;            // default pool: B in live allocations
  virtual void trim(std::uint64_t keep_bytes) = 0;  // cudaMemPoolTrimTo(pool, keep)
  virtual void synchronize(SyncKind kind) = 0;      // stream: the caller's streams; device: all
};

// The sizes a policy must place for one partition.
struct StagingRequest {
  int gpu = 0, worker = 0, workers_on_gpu = 1;
  std::int64_t partition = 0;
  std::vector<std::uint64_t> group_bytes;  // device bytes of each stage group, tier order
  std::uint64_t locked_sync_bytes = 0;     // peak cudaMalloc bytes of the locked steps, unstaged
  std::uint64_t pool_bytes = 0;            // peak pool bytes one partition uses
  std::uint64_t staged_total(int groups) const {
    std::uint64_t s = 0;
    for (int i = 0; i < groups && i < static_cast<int>(group_bytes.size()); ++i)
      s += group_bytes[i];
    return s;
  }
};

enum class TrimTiming { never, before_check, after_partition, on_failure };
enum class PinMode { register_per_partition, pinned_pool, pageable };

// Parameters every policy reads from the scenario's `policy.params` (unknown keys are errors).
struct PolicyParams {
  std::uint64_t margin = 512ull << 20;  // B kept free beyond what is placed
  TrimTiming trim = TrimTiming::before_check;
  SyncKind sync = SyncKind::device;  // before reading free memory: none, stream, event, device
  bool has_release_threshold = false;
  std::uint64_t release_threshold = 0;  // B; default: the calibration's
  bool has_pinning = false;
  PinMode pinning = PinMode::register_per_partition;  // default: the policy's own
  std::vector<int> tiers = {2, 1};  // placements tried, best first (2 = both, 1 = only d_a)
  std::uint64_t budget = 0;         // B of device memory a GPU's workers may use (0: derive)
};

PolicyParams parse_policy_params(const yaml::In& params);  // InputError on bad keys/values

class Policy {
 public:
  explicit Policy(PolicyParams p) : params_(std::move(p)) {}
  virtual ~Policy() = default;
  const PolicyParams& params() const { return params_; }
  // False: no pre-staging at all (the pipeline's uploads run inside the lock).
  virtual bool prestages() const = 0;
  // How host inputs are made uploadable: the scenario's choice, else the policy's default
  // (pageable for baseline, cudaHostRegister per partition for the pre-staging policies).
  PinMode pinning() const { return params_.has_pinning ? params_.pinning : default_pinning(); }
  virtual PinMode default_pinning() const { return PinMode::register_per_partition; }
  virtual int place(MemoryView& view, const StagingRequest& req) = 0;
  // A pre-staging allocation failed with `failed` groups placed: groups to keep (< failed), or -1
  // to fail the partition (the driver frees what it holds and retries or drops it).
  virtual int on_failure(MemoryView&, const StagingRequest&, int /*failed*/) { return -1; }
  virtual void after_partition(MemoryView&, const StagingRequest&) {}
  virtual void released(const StagingRequest&, int /*groups*/) {}

 protected:
  PolicyParams params_;
};

using PolicyFactory = std::function<std::unique_ptr<Policy>(const PolicyParams&)>;

// Registry by name; each policy file registers itself with PRESTAGE_REGISTER_POLICY.
void register_policy(const std::string& name, PolicyFactory f);
std::unique_ptr<Policy> make_policy(const std::string& name,
                                    const PolicyParams& p);  // null if unknown
std::vector<std::string> policy_names();                     // sorted
// The keys of a scenario's policy.params (parse_policy_params accepts these).
const std::vector<std::string>& policy_param_keys();

const char* to_string(TrimTiming t);
const char* to_string(PinMode m);

}  // namespace prestage::model

#define PRESTAGE_POLICY_CONCAT2(a, b) a##b
#define PRESTAGE_POLICY_CONCAT(a, b) PRESTAGE_POLICY_CONCAT2(a, b)
#define PRESTAGE_REGISTER_POLICY(name, factory)                                      \
  static const bool PRESTAGE_POLICY_CONCAT(prestage_policy_reg_, __COUNTER__) = [] { \
    ::prestage::model::register_policy(name, factory);                               \
    return true;                                                                     \
  }()
