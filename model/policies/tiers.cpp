// tiers: the reported memory-aware fix. Before each partition: synchronise (params.sync), trim the
// pool when params.trim == before_check, read free memory, and place the first tier of
// params.tiers (2 = d_a and d_bc, 1 = only d_a) whose bytes plus params.margin fit; else nothing.
// trim == on_failure: on a failed staging allocation, synchronise, trim and place again (smaller).
// trim == after_partition: synchronise and trim after each partition.
#include <algorithm>

#include "model/policy/policy.hpp"

namespace prestage::model {
namespace {
class Tiers final : public Policy {
 public:
  explicit Tiers(PolicyParams p) : Policy(std::move(p)) {}
  bool prestages() const override { return true; }

  int place(MemoryView& view, const StagingRequest& req) override {
    if (params_.sync != SyncKind::none) view.synchronize(params_.sync);
    if (params_.trim == TrimTiming::before_check) view.trim(0);
    return fit(view, req, static_cast<int>(req.group_bytes.size()) + 1);
  }

  int on_failure(MemoryView& view, const StagingRequest& req, int failed) override {
    if (params_.trim != TrimTiming::on_failure) return 0;  // fall back to the unstaged path
    if (params_.sync != SyncKind::none) view.synchronize(params_.sync);
    view.trim(0);
    return fit(view, req, failed);
  }

  void after_partition(MemoryView& view, const StagingRequest&) override {
    if (params_.trim != TrimTiming::after_partition) return;
    if (params_.sync != SyncKind::none) view.synchronize(params_.sync);
    view.trim(0);
  }

 private:
  // The best tier below `limit` groups whose bytes + margin fit in free memory.
  int fit(MemoryView& view, const StagingRequest& req, int limit) {
    std::uint64_t free = view.free_bytes();
    int groups = static_cast<int>(req.group_bytes.size());
    for (int t : params_.tiers) {
      int g = std::min(t, groups);
      if (g >= limit) continue;
      if (req.staged_total(g) + params_.margin <= free) return g;
    }
    return 0;
  }
};
}  // namespace
PRESTAGE_REGISTER_POLICY("tiers", [](const PolicyParams& p) { return std::make_unique<Tiers>(p); });
}  // namespace prestage::model
