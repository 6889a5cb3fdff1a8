// budget (ours): no device-wide synchronisation. The workers of a GPU share an explicit
// device-memory budget, kept by the policy itself: a partition may pre-stage a tier only if
//   staged bytes already held by this GPU's workers + the tier's bytes
//   + what one worker allocates inside the lock (unstaged cudaMalloc peak)
//   + the pool memory each worker's pool may retain (pool peak x workers)
//   + margin  <=  budget.
// The budget is params.budget, or (0) the free memory seen at the first call. Reading free memory
// once needs no synchronisation; staged buffers are returned through released(). After each
// partition the worker syncs its own streams (no wait for the other worker): that host sync is
// what makes its cudaFreeAsync'd pool memory visible to the other worker's cudaMalloc.
#include <algorithm>

#include "model/policy/policy.hpp"

namespace prestage::model {
namespace {
class Budget final : public Policy {
 public:
  explicit Budget(PolicyParams p)
      : Policy(std::move(p)),
        margin_(params_.bytes("margin")),
        param_budget_(params_.bytes("budget")),
        tiers_(tier_groups(params_.choices("tiers"))) {}
  bool prestages() const override { return true; }

  int place(MemoryView& view, const StagingRequest& req) override {
    if (budget_ == 0) budget_ = param_budget_ ? param_budget_ : view.free_bytes();
    int groups = static_cast<int>(req.group_bytes.size());
    std::uint64_t fixed = req.locked_sync_bytes + req.pool_bytes * req.workers_on_gpu + margin_;
    for (int t : tiers_) {
      int g = std::min(t, groups);
      std::uint64_t need = held_ + req.staged_total(g) + fixed;
      if (need <= budget_) {
        held_ += req.staged_total(g);
        return g;
      }
    }
    return 0;
  }

  int on_failure(MemoryView&, const StagingRequest& req, int failed) override {
    held_ -= std::min(held_, req.staged_total(failed));
    return 0;  // the unstaged path; the budget was too generous for this device's real state
  }

  // The partition's pool frees (MSM scratch) stay reserved and invisible to the other worker's
  // cudaMalloc until a host sync observes them (probe pool_vs_cudamalloc); a sync of this
  // worker's own streams does that without waiting for the other worker's kernels.
  void after_partition(MemoryView& view, const StagingRequest&) override {
    view.synchronize(SyncKind::stream);
  }

  void released(const StagingRequest& req, int groups) override {
    held_ -= std::min(held_, req.staged_total(groups));
  }

 private:
  const std::uint64_t margin_, param_budget_;  // B
  const std::vector<int> tiers_;
  std::uint64_t budget_ = 0;  // B
  std::uint64_t held_ = 0;    // B staged and not yet released, all workers of this GPU
};
}  // namespace
PRESTAGE_REGISTER_POLICY({
    .name = "budget",
    .doc = "ours: an explicit device-memory budget shared by the GPU's workers, no device sync; "
           "a stream sync after each partition",
    .default_pinning = PinMode::register_per_partition,
    .params =
        {
            {"margin",
             ParamType::bytes,
             "B",
             "512MiB",
             "kept free beyond what the budget counts",
             {}},
            tiers_param(),
            {"budget",
             ParamType::bytes,
             "B",
             "0",
             "device memory the GPU's workers may use (0: the free memory at the first call)",
             {}},
        },
    .make = [](const PolicyParams& p) { return std::make_unique<Budget>(p); },
});
}  // namespace prestage::model
