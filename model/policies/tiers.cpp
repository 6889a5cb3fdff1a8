// tiers: the reported memory-aware fix. Before each partition: synchronise (`sync`), trim the
// pool when trim == before_check, read free memory, and place the first tier of `tiers`
// (both = d_a and d_bc, a_only = only d_a) whose bytes plus `margin` fit; else nothing.
// trim == on_failure: on a failed staging allocation, synchronise, trim and place again (smaller).
// trim == after_partition: synchronise and trim after each partition.
// lock_aware: also keep free what the GPU lock's holder will still allocate in its locked steps
// (MemoryView::lock_holder(): peak_more, its most further growth); where the driver cannot tell,
// the worst case (the locked steps' cudaMalloc peak plus the pool peak).
#include <algorithm>

#include "model/policy/policy.hpp"

namespace prestage::model {
namespace {
class Tiers final : public Policy {
 public:
  explicit Tiers(PolicyParams p)
      : Policy(std::move(p)),
        margin_(params_.bytes("margin")),
        trim_(trim_from(params_.choice("trim"))),
        sync_(sync_from(params_.choice("sync"))),
        tiers_(tier_groups(params_.choices("tiers"))),
        lock_aware_(params_.flag("lock_aware")) {}
  bool prestages() const override { return true; }

  int place(MemoryView& view, const StagingRequest& req) override {
    if (sync_ != SyncKind::none) view.synchronize(sync_);
    if (trim_ == TrimTiming::before_check) view.trim(0);
    return fit(view, req, static_cast<int>(req.group_bytes.size()) + 1);
  }

  int on_failure(MemoryView& view, const StagingRequest& req, int failed) override {
    if (trim_ != TrimTiming::on_failure) return 0;  // fall back to the unstaged path
    if (sync_ != SyncKind::none) view.synchronize(sync_);
    view.trim(0);
    return fit(view, req, failed);
  }

  void after_partition(MemoryView& view, const StagingRequest&) override {
    if (trim_ != TrimTiming::after_partition) return;
    if (sync_ != SyncKind::none) view.synchronize(sync_);
    view.trim(0);
  }

 private:
  static TrimTiming trim_from(const std::string& t) {
    return t == "never"             ? TrimTiming::never
           : t == "before_check"    ? TrimTiming::before_check
           : t == "after_partition" ? TrimTiming::after_partition
                                    : TrimTiming::on_failure;
  }
  static SyncKind sync_from(const std::string& s) {
    return s == "none"     ? SyncKind::none
           : s == "stream" ? SyncKind::stream
           : s == "event"  ? SyncKind::event
                           : SyncKind::device;
  }

  // B to keep free for the lock holder (lock_aware only).
  std::uint64_t holder_reserve(MemoryView& view, const StagingRequest& req) {
    if (!lock_aware_) return 0;
    LockHolder h = view.lock_holder();
    if (!h.known) return req.locked_sync_bytes + req.pool_bytes;
    return h.held ? h.peak_more : 0;
  }

  // The best tier below `limit` groups whose bytes + margin (+ the holder's reserve) fit in free
  // memory.
  int fit(MemoryView& view, const StagingRequest& req, int limit) {
    std::uint64_t free = view.free_bytes();
    std::uint64_t reserve = margin_ + holder_reserve(view, req);
    int groups = static_cast<int>(req.group_bytes.size());
    for (int t : tiers_) {
      int g = std::min(t, groups);
      if (g >= limit) continue;
      if (req.staged_total(g) + reserve <= free) return g;
    }
    return 0;
  }

  const std::uint64_t margin_;
  const TrimTiming trim_;
  const SyncKind sync_;
  const std::vector<int> tiers_;
  const bool lock_aware_;
};
}  // namespace
PRESTAGE_REGISTER_POLICY({
    .name = "tiers",
    .doc = "the reported memory-aware fix: sync, trim, read free memory, place the first tier "
           "whose bytes + margin fit",
    .default_pinning = PinMode::register_per_partition,
    .params =
        {
            {"margin", ParamType::bytes, "B", "512MiB", "kept free beyond what is placed", {}},
            {"trim",
             ParamType::choice,
             "",
             "before_check",
             "when to cudaMemPoolTrimTo(pool, 0)",
             {"never", "before_check", "after_partition", "on_failure"}},
            {"sync",
             ParamType::choice,
             "",
             "device",
             "the sync before reading free memory (stream/event: the worker's own; device: all)",
             {"none", "stream", "event", "device"}},
            tiers_param(),
            {"lock_aware",
             ParamType::flag,
             "",
             "false",
             "also keep free what the lock holder will still allocate in its locked steps",
             {}},
        },
    .make = [](const PolicyParams& p) { return std::make_unique<Tiers>(p); },
});
}  // namespace prestage::model
