// pinned: the control for the pre-staging policies. It pre-stages nothing: the pipeline's own
// steps allocate and upload inside the GPU lock, as in baseline, but from inputs pinned per
// partition (cudaHostRegister), and after each partition the worker synchronises its own streams
// (`sync`, default stream), as budget does. Where budget stages nothing (16 GiB, two workers),
// pinned reproduces it: budget's gain over baseline there is pinned uploads plus that sync, not
// pre-staging. `sync: none` leaves only the pinned uploads.
#include "model/policy/policy.hpp"

namespace prestage::model {
namespace {
class PinnedControl final : public Policy {
 public:
  explicit PinnedControl(PolicyParams p) : Policy(std::move(p)) {
    const std::string& s = params_.choice("sync");
    sync_ = s == "none" ? SyncKind::none : s == "event" ? SyncKind::event : SyncKind::stream;
  }
  // True so that the drivers run the hooks (place() and after_partition()); place() stages
  // nothing, so every upload runs inside the lock.
  bool prestages() const override { return true; }
  int place(MemoryView&, const StagingRequest&) override { return 0; }
  int on_failure(MemoryView&, const StagingRequest&, int) override { return 0; }
  void after_partition(MemoryView& view, const StagingRequest&) override {
    if (sync_ != SyncKind::none) view.synchronize(sync_);
  }

 private:
  SyncKind sync_ = SyncKind::stream;
};
}  // namespace
PRESTAGE_REGISTER_POLICY({
    .name = "pinned",
    .doc = "control: no pre-staging, pinned uploads inside the lock, a stream sync after each "
           "partition (budget's extras without its staging)",
    .default_pinning = PinMode::register_per_partition,
    .params =
        {
            {"sync",
             ParamType::choice,
             "",
             "stream",
             "the worker's sync after each partition (stream: its own streams, as budget)",
             {"none", "stream", "event"}},
        },
    .make = [](const PolicyParams& p) { return std::make_unique<PinnedControl>(p); },
});
}  // namespace prestage::model
