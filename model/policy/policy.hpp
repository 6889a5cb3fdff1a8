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
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "model/calibration.hpp"

namespace prestage::yaml {
class In;
}

namespace prestage::model {

// The GPU lock's holder as another worker's policy sees it (MemoryView::lock_holder()). "Still
// to allocate" counts the holder's remaining alloc steps up to the pipeline's unlock, leaving out
// the buffers it pre-staged: `to_allocate` sums them (frees ignored, an upper bound), `peak_more`
// is the most its device allocations will still grow (allocs minus frees, running maximum).
struct LockHolder {
  bool known = false;  // false: this driver cannot tell; the other fields say nothing
  bool held = false;   // a worker of this GPU holds the GPU lock
  int worker = -1;     // which (it may be the caller's own executor)
  std::int64_t partition = -1;
  std::uint64_t held_bytes = 0;   // B of device buffers its partition holds now (staged included)
  std::uint64_t to_allocate = 0;  // B its remaining locked alloc steps allocate, summed
  std::uint64_t peak_more = 0;    // B its device usage will still grow at most
};

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
  // Who holds this GPU's lock and what its partition holds and will still allocate inside it.
  // Immediate (never blocks). Default: unknown.
  virtual LockHolder lock_holder() { return {}; }
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

// --- Parameters -------------------------------------------------------------------------------
// Each policy declares its parameters in its own file (PolicyInfo::params): name, type, unit,
// default, one line of doc. The scenario's `policy.params` may set only what the chosen policy
// declares, plus the driver-level parameters every policy inherits (common_params(), declared
// once in model/policy/registry.cpp: release_threshold, pinning); anything else is an InputError
// naming the file, line and key.
enum class ParamType {
  bytes,    // "512MiB", "16 GiB", 4294967296
  choice,   // one of ParamDecl::choices
  choices,  // a list of ParamDecl::choices ("[both, a_only]")
  flag,     // true / false
  integer,  // an integer
};
const char* to_string(ParamType t);

struct ParamDecl {
  std::string name;
  ParamType type = ParamType::bytes;
  std::string unit;                  // "B" for bytes, "" for the others
  std::string default_value;         // as the scenario would write it; "" = unset (doc says why)
  std::string doc;                   // one line
  std::vector<std::string> choices;  // choice / choices: the allowed words
};

// One resolved value: as given, or the declaration's default.
struct ParamValue {
  ParamType type = ParamType::bytes;
  bool set = false;    // false: no value (an unset default such as release_threshold's)
  bool given = false;  // written in the scenario (not defaulted)
  std::uint64_t bytes = 0;
  std::int64_t integer = 0;
  bool flag = false;
  std::string choice;
  std::vector<std::string> choices;
  std::string text() const;  // canonical text with unit ("512 MiB", "[both, a_only]"); "" unset
};

// The resolved parameters of one policy: every declared name, given or defaulted. A policy reads
// them with the typed getters (a name it did not declare, or of another type: std::logic_error,
// a programming error). The drivers read the inherited ones through the typed members.
class PolicyParams {
 public:
  // Driver-level, inherited by every policy (filled on resolution).
  bool has_release_threshold = false;
  std::uint64_t release_threshold = 0;                // B; unset: the calibration's
  bool has_pinning = false;                           // pinning given in the scenario
  PinMode pinning = PinMode::register_per_partition;  // resolved: given, else the policy's default

  std::uint64_t bytes(const std::string& name) const;
  std::int64_t integer(const std::string& name) const;
  bool flag(const std::string& name) const;
  const std::string& choice(const std::string& name) const;
  const std::vector<std::string>& choices(const std::string& name) const;
  bool given(const std::string& name) const;  // written in the scenario
  bool has(const std::string& name) const { return values_.count(name) != 0; }
  const std::map<std::string, ParamValue>& values() const { return values_; }
  // name -> value as text with unit, defaults included ("" for an unset default).
  std::map<std::string, std::string> resolved_text() const;
  void set(const std::string& name, ParamValue v) { values_[name] = std::move(v); }

 private:
  const ParamValue& at(const std::string& name, ParamType t) const;
  std::map<std::string, ParamValue> values_;
};

class Policy {
 public:
  explicit Policy(PolicyParams p) : params_(std::move(p)) {}
  virtual ~Policy() = default;
  const PolicyParams& params() const { return params_; }
  // False: no pre-staging at all (the pipeline's uploads run inside the lock).
  virtual bool prestages() const = 0;
  // How host inputs are made uploadable: the scenario's `pinning`, else the policy's default
  // (PolicyInfo::default_pinning), resolved into params().pinning.
  PinMode pinning() const { return params_.pinning; }
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

// What a policy file registers: everything `prestage policies` lists, and the factory.
struct PolicyInfo {
  std::string name;
  std::string doc;  // one line
  PinMode default_pinning = PinMode::register_per_partition;
  std::vector<ParamDecl> params;  // the policy's own (the inherited ones: common_params())
  PolicyFactory make;
  std::string file;  // set by PRESTAGE_REGISTER_POLICY (__FILE__)
};

// Registry by name; each policy file registers itself with PRESTAGE_REGISTER_POLICY.
void register_policy(PolicyInfo info);
const PolicyInfo* find_policy(const std::string& name);  // null if unknown
std::vector<std::string> policy_names();                 // sorted
// The parameters every policy inherits (release_threshold, pinning).
const std::vector<ParamDecl>& common_params();
// Every parameter `name` accepts: common_params() then its own (empty if unknown).
std::vector<ParamDecl> declared_params(const std::string& name);

// Resolves the scenario's `policy.params` for policy `name` (a null or absent node: all
// defaults). InputError (file, line, key) on a key the policy does not declare or a bad value.
PolicyParams parse_policy_params(const std::string& name, const yaml::In& params);
// The same from YAML text (tests, programmatic use); `where` names it in errors.
PolicyParams policy_params(const std::string& name, const std::string& yaml_text = "",
                           const std::string& where = "<policy params>");
// Makes policy `name`; `p` may be partial (a default-constructed PolicyParams): missing declared
// parameters take their defaults. Null if unknown.
std::unique_ptr<Policy> make_policy(const std::string& name, const PolicyParams& p = {});

const char* to_string(TrimTiming t);
const char* to_string(PinMode m);
PinMode pin_mode_from(const std::string& s);  // one of to_string(PinMode)'s words
// A `tiers`-style list ("both", "a_only") as group counts (2, 1).
inline std::vector<int> tier_groups(const std::vector<std::string>& words) {
  std::vector<int> out;
  for (const auto& w : words) out.push_back(w == "both" ? 2 : 1);
  return out;
}
// The `tiers` parameter of a policy that pre-stages by tiers (tier_groups reads its value).
inline ParamDecl tiers_param() {
  return {"tiers",
          ParamType::choices,
          "",
          "[both, a_only]",
          "placements tried, best first (both: d_a and d_bc; a_only: d_a)",
          {"both", "a_only"}};
}

}  // namespace prestage::model

#define PRESTAGE_POLICY_CONCAT2(a, b) a##b
#define PRESTAGE_POLICY_CONCAT(a, b) PRESTAGE_POLICY_CONCAT2(a, b)
// PRESTAGE_REGISTER_POLICY(info): `info` is a PolicyInfo (its `file` is filled in here).
#define PRESTAGE_REGISTER_POLICY(...)                                                \
  static const bool PRESTAGE_POLICY_CONCAT(prestage_policy_reg_, __COUNTER__) = [] { \
    ::prestage::model::PolicyInfo i = __VA_ARGS__;                                   \
    i.file = __FILE__;                                                               \
    ::prestage::model::register_policy(std::move(i));                                \
    return true;                                                                     \
  }()
